#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IP address as 16 bytes: IPv4 as an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), so one
/// range type covers both.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// Parses a numeric IPv4 or IPv6 address (no port, no brackets, no zone); `nil` otherwise.
    public init?(_ text: some StringProtocol) {
        let text = String(text)
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] + withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        bytes = withUnsafeBytes(of: &v6) { Array($0) }
    }

    /// Whether it is an IPv4 address (written as one, or IPv4-mapped).
    public var isIPv4: Bool { bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF }

    public var description: String {
        if isIPv4 { return bytes[12...].map(String.init).joined(separator: ".") }
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A block of addresses in CIDR notation: `10.0.0.0/8`, `fd00::/8`, or one address (`127.0.0.1`).
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    public let base: IPAddress
    /// Leading bits that must match, counted on the 16-byte form (an IPv4 `/8` is 96 + 8).
    public let prefixBits: Int
    public let description: String

    /// Parses `address` or `address/prefix`; `nil` when either part is malformed.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let base = IPAddress(parts[0]) else { return nil }
        let maxBits = base.isIPv4 ? 32 : 128
        var bits = maxBits
        if parts.count == 2 {
            guard parts[1].allSatisfy(\.isASCII), let given = Int(parts[1]), (0...maxBits).contains(given) else { return nil }
            bits = given
        }
        self.base = base
        prefixBits = (base.isIPv4 ? 96 : 0) + bits
        description = String(text)
    }

    public func contains(_ address: IPAddress) -> Bool {
        var left = prefixBits
        for index in 0..<16 where left > 0 {
            let mask: UInt8 = left >= 8 ? 0xFF : ~(0xFF >> UInt8(left))
            if address.bytes[index] & mask != base.bytes[index] & mask { return false }
            left -= 8
        }
        return true
    }
}

/// The reverse proxies in front of the server (`--trusted-proxy`): only a request from one of
/// them may name its client in `X-Forwarded-For`; from anyone else the header is ignored, so a
/// client cannot pick the address its limits are counted under.
public struct TrustedProxies: Sendable {
    public let ranges: [AddressRange]

    public init(_ ranges: [AddressRange] = []) {
        self.ranges = ranges
    }

    /// Parses a list of ranges separated by commas or spaces; `nil` if any is malformed.
    public init?(list: String) {
        var ranges: [AddressRange] = []
        for part in list.split(whereSeparator: { $0 == "," || $0 == " " }) {
            guard let range = AddressRange(part) else { return nil }
            ranges.append(range)
        }
        self.init(ranges)
    }

    public var isEmpty: Bool { ranges.isEmpty }

    public func trusts(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The address a request's per-address limits count under: its peer's, unless the peer is
    /// a trusted proxy; then the right-most address in `X-Forwarded-For` (every such header, in
    /// order) that is not a trusted proxy: each proxy appends the address it was connected from,
    /// so the entries left of that one are the client's to invent. When every entry is a trusted
    /// proxy, the left-most; when the entry reached is not an address, the peer's.
    public func clientAddress(of request: Request) -> String? {
        guard let peerText = request.remoteAddress else { return nil }
        guard !ranges.isEmpty, let peer = IPAddress(peerText), trusts(peer) else { return peerText }
        let forwarded = request.headers.values(for: "X-Forwarded-For")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingSpaces }
        var client = peerText
        for entry in forwarded.reversed() {
            guard let address = IPAddress(entry) else { return peerText }
            client = address.description
            if !trusts(address) { break }
        }
        return client
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
