/// A value that cannot exist in a consistent domain, such as a stored bill whose amounts
/// overflow 64 bits or a line with quantity 0.
///
/// Raised when building bills and lines from outside data (the database), and for a call the
/// code should never make (a page size out of range, an update of a row not read first): not
/// for a cashier's request, whose broken rules raise ``POSError``. The API answers it as an
/// internal error and logs it, where a trap would have stopped the process.
public struct InvariantViolation: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
