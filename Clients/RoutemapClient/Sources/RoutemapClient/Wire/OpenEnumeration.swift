/// A string enumeration that stays readable when the server adds a value: a value this client
/// does not know decodes to the enumeration's `unknown` case (carrying the text) instead of
/// failing the whole answer. Newer servers can then add ops, styles or types without breaking
/// older apps; each app decides what an unknown value means to it.
public protocol OpenEnumeration: Sendable, Hashable, Codable, RawRepresentable, CustomStringConvertible where RawValue == String {
    /// Every value this client knows, in the spec's order.
    static var knownCases: [Self] { get }
    /// A value this client does not know.
    static func unknown(_ rawValue: String) -> Self
}

extension OpenEnumeration {
    public init(rawValue: String) { self = Self.named(rawValue) }

    /// The known value spelled `rawValue`, or `unknown(rawValue)`.
    public static func named(_ rawValue: String) -> Self {
        knownCases.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
    }

    public init(from decoder: any Decoder) throws {
        self = Self.named(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Whether this client knows the value (false for the `unknown` case).
    public var isKnown: Bool { Self.knownCases.contains(self) }

    public var description: String { rawValue }
}
