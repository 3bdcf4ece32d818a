/// A value that cannot exist in a consistent domain, such as a stored bill whose amounts
/// overflow 64 bits or a line with quantity 0.
///
/// Raised when building bills and lines from outside data (the database), not for a cashier's
/// request: those break rules and raise ``POSError``.
public struct InvariantViolation: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
