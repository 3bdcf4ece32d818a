extension Bill {
    /// What the bill sells of the items in `countedItems` (ids of counted menu items,
    /// ``MenuItem/isCounted``): by item id, the quantities of all its lines holding it (one item
    /// with different options or notes is on several lines). Empty when it holds none of them.
    ///
    /// Taken off the shelf counts by the payment that makes the bill paid
    /// (``Till/pay(billId:device:_:countedItems:)``); voiding sells nothing, and a refund does not
    /// put anything back on the shelf (what was given back is rarely resold).
    public func stockSold(countedItems: Set<String>) -> [String: Int] {
        guard !countedItems.isEmpty else { return [:] }
        var sold: [String: Int] = [:]
        for line in lines where countedItems.contains(line.menuItemId) {
            // Lines are within BillLimits' quantities and a bill within its lines: no overflow.
            sold[line.menuItemId, default: 0] += line.quantity
        }
        return sold
    }
}
