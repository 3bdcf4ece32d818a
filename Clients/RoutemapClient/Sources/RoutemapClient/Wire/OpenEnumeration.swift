/// A string enumeration that stays readable when the server adds a value: a value this client
/// does not know decodes to the enumeration's `unknown` case (carrying the text) instead of
/// failing the whole answer. Newer servers can then add ops, styles or types without breaking
/// older apps; each app decides what an unknown value means to it.
///
/// **Equality and hashing are by `rawValue`**, the text on the wire (Swift's `==` and `hash(into:)`
/// for `RawRepresentable`): two values are equal when they encode the same. So `.unknown("voided")`,
/// made by hand, equals `.voided`, and `x == .unknown("s")` cannot tell whether `x` is known. This
/// is deliberate: decoding, `init(rawValue:)` and `named(_:)` never make `unknown` with a known
/// spelling, so only hand-made values differ from their known case, and for those, comparing the
/// wire text keeps equality in step with `Codable` (a value equals what its encoding decodes to)
/// and keeps a `Set` from holding one status twice (`BillStatus` filters sent as `?status=`).
/// Structural equality would break both for no value a server can send. To ask whether a value is
/// one this client knows, use `isKnown` or match the case (`if case .unknown = x`), not `==`.
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

    /// Whether this client knows the value: its `rawValue` names one of `knownCases` (false for
    /// every decoded `unknown`; true for a hand-made `.unknown` with a known spelling, which is
    /// that known value).
    public var isKnown: Bool { Self.knownCases.contains(self) }

    public var description: String { rawValue }
}
