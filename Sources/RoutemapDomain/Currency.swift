/// An ISO 4217 currency code such as `USD`: exactly three uppercase ASCII letters.
///
/// Only the shape is checked, not membership in the ISO list, so a new currency needs no release.
public struct Currency: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    public let rawValue: String

    /// The currency for `rawValue`, or `nil` unless it is exactly three letters `A`–`Z`.
    public init?(rawValue: String) {
        let scalars = rawValue.unicodeScalars
        guard scalars.count == 3, scalars.allSatisfy({ ("A"..."Z").contains($0) }) else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// US dollars, the demo menu's currency.
    public static let usd = Currency(rawValue: "USD")!
}
