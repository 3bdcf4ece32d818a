/// One line of a bill: a menu item, its name and unit price captured when it was added (later
/// menu changes do not alter the bill), and a quantity.
///
/// A line always has a quantity of at least 1, a unit price of at least 0, and a total that fits
/// in `Int64`: the initializer checks, so reading ``lineTotalMinor`` never traps.
public struct BillLine: Sendable, Hashable {
    /// `line_` followed by 22 random base62 characters.
    public let lineId: String
    public let menuItemId: String
    public let name: String
    public let quantity: Int
    public let unitPriceMinor: Int64
    /// `quantity × unitPriceMinor`.
    public let lineTotalMinor: Int64

    /// A line as stored; throws if the quantity is below 1, the price negative, or the total
    /// would overflow.
    public init(lineId: String, menuItemId: String, name: String, quantity: Int, unitPriceMinor: Int64) throws(InvariantViolation) {
        guard let line = BillLine(checkedLineId: lineId, menuItemId: menuItemId, name: name, quantity: quantity, unitPriceMinor: unitPriceMinor) else {
            throw InvariantViolation(
                "bill line \(lineId): quantity \(quantity) × unit price \(unitPriceMinor) is not a valid line")
        }
        self = line
    }

    /// `nil` unless quantity ≥ 1, price ≥ 0 and the total fits in `Int64`.
    init?(checkedLineId lineId: String, menuItemId: String, name: String, quantity: Int, unitPriceMinor: Int64) {
        guard quantity >= 1, unitPriceMinor >= 0 else { return nil }
        let (total, overflow) = Int64(quantity).multipliedReportingOverflow(by: unitPriceMinor)
        guard !overflow else { return nil }
        self.lineId = lineId
        self.menuItemId = menuItemId
        self.name = name
        self.quantity = quantity
        self.unitPriceMinor = unitPriceMinor
        self.lineTotalMinor = total
    }

    /// The same line with another quantity, or `nil` if that line would not be valid.
    func with(quantity newQuantity: Int) -> BillLine? {
        BillLine(checkedLineId: lineId, menuItemId: menuItemId, name: name, quantity: newQuantity, unitPriceMinor: unitPriceMinor)
    }
}
