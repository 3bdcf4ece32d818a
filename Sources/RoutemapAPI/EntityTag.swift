/// Strong entity tags and `If-None-Match` matching (RFC 9110 §8.8.3, §13.1.2).
package enum EntityTag {
    /// A quoted strong tag derived from the body's bytes (64-bit FNV-1a), so an unchanged body
    /// keeps its tag across restarts.
    package static func strong(for bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// Whether an `If-None-Match` header value matches `etag` (weak comparison, as the RFC asks
    /// for this header): `*`, or any listed tag with or without `W/`.
    package static func ifNoneMatch(_ header: String, matches etag: String) -> Bool {
        for candidate in header.split(separator: ",") {
            var tag = candidate.trimmingCharacters(in: " \t")
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in characters: String) -> String {
        var view = self[...]
        while let first = view.first, characters.contains(first) { view.removeFirst() }
        while let last = view.last, characters.contains(last) { view.removeLast() }
        return String(view)
    }
}
