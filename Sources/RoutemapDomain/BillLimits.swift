/// How big a bill may grow: a guard against typos (quantity 1000) and runaway clients.
public struct BillLimits: Sendable, Hashable {
    /// Largest quantity of one line. The SQLite schema also caps it at 999.
    public let maxQuantityPerLine: Int
    /// Most lines on one bill.
    public let maxLines: Int

    /// Limits of at least 1 each; the defaults are 999 per line and 100 lines.
    public init(maxQuantityPerLine: Int = 999, maxLines: Int = 100) {
        precondition(maxQuantityPerLine >= 1 && maxLines >= 1, "bill limits must be at least 1")
        self.maxQuantityPerLine = maxQuantityPerLine
        self.maxLines = maxLines
    }

    /// The quantities a line may have.
    public var quantityRange: ClosedRange<Int> { 1...maxQuantityPerLine }
}
