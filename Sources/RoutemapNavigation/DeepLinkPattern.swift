import RoutemapJSON

/// An app URL pattern such as `routemap://bills/{billId}/summary`: a scheme, then `/`-separated
/// segments (the host counts as the first) that are literal or a `{placeholder}`.
public struct DeepLinkPattern: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One segment of the pattern.
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case placeholder(String)
    }

    public let text: String
    public let scheme: String
    public let segments: [Segment]
    /// Why the text is not a usable pattern; `nil` when it is. The registry check reports it.
    public let defect: String?

    public init(_ text: String) {
        self.text = text
        guard let (scheme, parts) = DeepLinkPattern.split(text) else {
            (self.scheme, self.segments, self.defect) = ("", [], "is not of the form scheme://segment/…")
            return
        }
        self.scheme = scheme
        var segments: [Segment] = []
        var defect: String?
        var names: Set<String> = []
        for part in parts {
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                let name = String(part.dropFirst().dropLast())
                if !names.insert(name).inserted { defect = "repeats the placeholder {\(name)}" }
                if name.contains(where: { "{}".contains($0) }) { defect = "has a malformed placeholder \(part)" }
                segments.append(.placeholder(name))
            } else if part.contains(where: { "{}".contains($0) }) {
                defect = "has a malformed placeholder \(part)"
                segments.append(.literal(String(part)))
            } else {
                segments.append(.literal(String(part)))
            }
        }
        self.segments = segments
        self.defect = defect
    }

    public init(stringLiteral value: String) { self.init(value) }

    public var description: String { text }

    /// The placeholders' values when `url` matches, else `nil`. A query or fragment is ignored;
    /// segments are compared after percent-decoding.
    public func match(_ url: String) -> [String: String]? {
        guard defect == nil, let (scheme, parts) = DeepLinkPattern.split(url), scheme.lowercased() == self.scheme.lowercased(),
            parts.count == segments.count
        else { return nil }
        var values: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            guard let decoded = part.removingPercentEncodingStrictly, !decoded.isEmpty else { return nil }
            switch segment {
            case .literal(let literal): guard literal == decoded else { return nil }
            case .placeholder(let name): values[name] = decoded
            }
        }
        return values
    }

    /// Whether some URL matches both patterns: then a link would be ambiguous.
    public func overlaps(_ other: DeepLinkPattern) -> Bool {
        guard defect == nil, other.defect == nil, scheme.lowercased() == other.scheme.lowercased(),
            segments.count == other.segments.count
        else { return false }
        return zip(segments, other.segments).allSatisfy { pair in
            if case .literal(let a) = pair.0, case .literal(let b) = pair.1 { return a == b }
            return true
        }
    }

    /// `scheme://a/b/c?q#f` → ("scheme", ["a", "b", "c"]); `nil` without `://` or with an empty segment.
    private static func split(_ text: String) -> (String, [Substring])? {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else { return nil }
        let scheme = text[..<colon]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else {
            return nil
        }
        var rest = text[text.index(colon, offsetBy: 3)...]
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        return (String(scheme), parts)
    }
}

extension Substring {
    /// Percent-decodes; `nil` for a malformed escape or bytes that are not UTF-8.
    fileprivate var removingPercentEncodingStrictly: String? {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
