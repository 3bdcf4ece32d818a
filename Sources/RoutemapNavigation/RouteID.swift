/// The stable name of a route ("bill", "orderSummary"). Clients store these in their stacks,
/// so a route id never changes once shipped.
public struct RouteID: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    public static func < (lhs: RouteID, rhs: RouteID) -> Bool { lhs.rawValue < rhs.rawValue }
}
