/// A parsed route pattern such as `/v1/bills/{billId}/items`: literal segments and `{name}`
/// captures, each capture matching exactly one non-empty segment.
struct RoutePattern: Sendable, Equatable {
    enum Segment: Sendable, Equatable {
        case literal([UInt8])
        case capture(String)
    }

    let text: String
    let segments: [Segment]

    /// Parses `text`; a malformed pattern is a programming error and stops the process.
    init(_ text: String) {
        precondition(text.hasPrefix("/"), "Route pattern '\(text)' must start with '/'.")
        self.text = text
        var segments: [Segment] = []
        var names = Set<String>()
        if text != "/" {
            for part in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
                precondition(!part.isEmpty, "Route pattern '\(text)' has an empty segment.")
                if part.hasPrefix("{") && part.hasSuffix("}") {
                    let name = String(part.dropFirst().dropLast())
                    precondition(!name.isEmpty && !name.contains("{") && !name.contains("}"), "Bad capture in '\(text)'.")
                    precondition(names.insert(name).inserted, "Capture '\(name)' repeats in '\(text)'.")
                    segments.append(.capture(name))
                } else {
                    precondition(!part.contains("{") && !part.contains("}"), "Bad segment '\(part)' in '\(text)'.")
                    segments.append(.literal(Array(part.utf8)))
                }
            }
        }
        self.segments = segments
    }

    /// Orders patterns so that, reading segments left to right, a literal comes before a
    /// capture (a lexicographic order on segment kinds, so a total one): the first matching
    /// pattern in this order is the most specific one.
    func isMoreSpecific(than other: RoutePattern) -> Bool {
        kinds.lexicographicallyPrecedes(other.kinds)
    }

    /// 0 for a literal segment, 1 for a capture.
    private var kinds: [Int] {
        segments.map { if case .literal = $0 { 0 } else { 1 } }
    }

    /// The captured values when `path` (already split) matches, else `nil`.
    func match(_ path: [Substring.UTF8View]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        for (segment, part) in zip(segments, path) {
            if case .literal(let bytes) = segment, !part.elementsEqual(bytes) { return nil }
        }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, path) {
            if case .capture(let name) = segment { parameters[name] = String(Substring(part)) }
        }
        return parameters
    }

    /// Splits a request path into segments: `nil` unless it starts with `/` and has no empty
    /// segment (so `/a/`, `//a` and `/a//b` match nothing); `/` alone has zero segments.
    static func split(_ path: String) -> [Substring.UTF8View]? {
        let bytes = Substring(path).utf8
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        if bytes.count == 1 { return [] }
        let parts = bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        var segments: [Substring.UTF8View] = []
        segments.reserveCapacity(parts.count)
        for part in parts {
            if part.isEmpty { return nil }
            segments.append(part)
        }
        return segments
    }
}
