/// One line of a bill: a menu item, its name and unit price captured when it was added (later
/// menu changes do not alter the bill), the modifiers chosen with it (captured likewise), and a
/// quantity.
///
/// A line always has a quantity of at least 1, a unit price of at least 0, and a total that fits
/// in `Int64`: the initializer checks, so reading ``lineTotalMinor`` never traps.
public struct BillLine: Sendable, Hashable {
    /// `line_` followed by 22 random base62 characters.
    public let lineId: String
    public let menuItemId: String
    public let name: String
    public let quantity: Int
    /// The item's price plus its modifiers' prices, when it was added.
    public let unitPriceMinor: Int64
    /// `quantity × unitPriceMinor`.
    public let lineTotalMinor: Int64
    /// The options chosen with the item, in menu order; empty for most lines. Part of the line's
    /// identity: adding the same item with the same options raises this line.
    public let modifiers: [BillLineModifier]

    /// A line as stored; throws if the quantity is below 1, the price negative, or the total
    /// would overflow.
    public init(
        lineId: String, menuItemId: String, name: String, quantity: Int, unitPriceMinor: Int64, modifiers: [BillLineModifier] = []
    ) throws(InvariantViolation) {
        guard
            let line = BillLine(
                checkedLineId: lineId, menuItemId: menuItemId, name: name, quantity: quantity, unitPriceMinor: unitPriceMinor,
                modifiers: modifiers)
        else {
            throw InvariantViolation(
                "bill line \(lineId): quantity \(quantity) × unit price \(unitPriceMinor) is not a valid line")
        }
        self = line
    }

    /// `nil` unless quantity ≥ 1, price ≥ 0 and the total fits in `Int64`.
    init?(
        checkedLineId lineId: String, menuItemId: String, name: String, quantity: Int, unitPriceMinor: Int64,
        modifiers: [BillLineModifier] = []
    ) {
        guard quantity >= 1, unitPriceMinor >= 0 else { return nil }
        let (total, overflow) = Int64(quantity).multipliedReportingOverflow(by: unitPriceMinor)
        guard !overflow else { return nil }
        self.lineId = lineId
        self.menuItemId = menuItemId
        self.name = name
        self.quantity = quantity
        self.unitPriceMinor = unitPriceMinor
        self.lineTotalMinor = total
        self.modifiers = modifiers
    }

    /// The same line with another quantity, or `nil` if that line would not be valid.
    func with(quantity newQuantity: Int) -> BillLine? {
        BillLine(
            checkedLineId: lineId, menuItemId: menuItemId, name: name, quantity: newQuantity, unitPriceMinor: unitPriceMinor,
            modifiers: modifiers)
    }

    /// Whether this line is `menuItemId` with exactly the options `optionIds` (in any order):
    /// the line an add of them raises.
    func holds(_ menuItemId: String, optionIds: Set<String>) -> Bool {
        self.menuItemId == menuItemId && modifiers.count == optionIds.count && modifiers.allSatisfy { optionIds.contains($0.optionId) }
    }
}
