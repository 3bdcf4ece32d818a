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

    /// Whether the pattern has no captures: it matches exactly the path that is its text.
    var isLiteral: Bool {
        segments.allSatisfy { if case .literal = $0 { true } else { false } }
    }

    /// Whether `path` has exactly the bytes of `text`.
    func hasText(_ path: String) -> Bool {
        var text = text, path = path
        return text.withUTF8 { text in path.withUTF8 { path in text.elementsEqual(path) } }
    }

    /// 0 for a literal segment, 1 for a capture.
    private var kinds: [Int] {
        segments.map { if case .literal = $0 { 0 } else { 1 } }
    }

    /// The captured values when `path` (its UTF-8 bytes) matches, else `nil`. A path matches
    /// only when it starts with `/` and has no empty segment (so `/a/`, `//a` and `/a//b`
    /// match nothing); `/` alone has zero segments.
    ///
    /// Walks the bytes in place, segment by segment, and stops at the first difference: no
    /// split of the path, and no dictionary unless the pattern captures (every request tries
    /// several patterns).
    func match(_ path: UnsafeBufferPointer<UInt8>) -> [String: String]? {
        guard !segments.isEmpty else { return path.count == 1 && path[0] == Self.slash ? [:] : nil }
        var start = 0
        var captures = false
        for segment in segments {
            guard let part = Self.segment(of: path, at: start) else { return nil }
            switch segment {
            case .literal(let bytes):
                guard Self.equal(bytes, path, part) else { return nil }
            case .capture:
                captures = true
            }
            start = part.upperBound
        }
        guard start == path.count else { return nil }
        guard captures else { return [:] }
        var parameters: [String: String] = [:]
        start = 0
        for segment in segments {
            guard let part = Self.segment(of: path, at: start) else { return nil }
            if case .capture(let name) = segment {
                parameters[name] = String(decoding: UnsafeBufferPointer(rebasing: path[part]), as: UTF8.self)
            }
            start = part.upperBound
        }
        return parameters
    }

    /// The bytes of the segment whose `/` is at `start` (up to the next `/` or the end), or
    /// `nil` when there is no `/` at `start` or the segment is empty.
    private static func segment(of path: UnsafeBufferPointer<UInt8>, at start: Int) -> Range<Int>? {
        guard start < path.count, path[start] == slash else { return nil }
        var end = start + 1
        while end < path.count, path[end] != slash { end += 1 }
        return end > start + 1 ? (start + 1)..<end : nil
    }

    /// Whether `path[part]` is `literal`. Lengths first: they tell most segments apart.
    private static func equal(_ literal: [UInt8], _ path: UnsafeBufferPointer<UInt8>, _ part: Range<Int>) -> Bool {
        guard literal.count == part.count else { return false }
        var index = part.lowerBound
        for byte in literal {
            guard path[index] == byte else { return false }
            index += 1
        }
        return true
    }

    private static let slash = UInt8(ascii: "/")
}
