/// A menu item (`GET /v1/menu/items`, the menu screen's rows).
public struct MenuItem: WireObjectWithKeys {
    public var id: String
    public var name: String
    public var category: String
    /// Unit price in minor units (cents).
    public var priceMinor: Int64
    /// ISO 4217 code.
    public var currency: String
    /// Unavailable items cannot be added to a bill.
    public var available: Bool

    public enum CodingKeys: String, CodingKey, CaseIterable { case id, name, category, priceMinor, currency, available }
}

/// One line of a bill.
public struct BillLine: WireObjectWithKeys {
    public var lineId: String
    public var menuItemId: String
    /// The menu item's name.
    public var name: String
    public var quantity: Int
    /// The item's price when the line was added.
    public var unitPriceMinor: Int64
    public var lineTotalMinor: Int64

    public enum CodingKeys: String, CodingKey, CaseIterable { case lineId, menuItemId, name, quantity, unitPriceMinor, lineTotalMinor }
}

/// A bill; money in minor units of `currency`, totals computed by the server.
public struct Bill: WireObjectWithKeys {
    public var id: String
    public var status: BillStatus
    public var lines: [BillLine]
    public var subtotalMinor: Int64
    public var taxMinor: Int64
    public var totalMinor: Int64
    public var currency: String
    /// Increases with every change to the bill.
    public var version: Int

    public enum CodingKeys: String, CodingKey, CaseIterable { case id, status, lines, subtotalMinor, taxMinor, totalMinor, currency, version }
}

/// A payment of a bill.
public struct Payment: WireObjectWithKeys {
    public var id: String
    public var billId: String
    public var method: PaymentMethod
    public var amountMinor: Int64
    public var tenderedMinor: Int64
    /// `tenderedMinor − amountMinor` for cash; 0 for card.
    public var changeMinor: Int64
    /// RFC 3339 date-time, as the server wrote it.
    public var createdAt: String

    public enum CodingKeys: String, CodingKey, CaseIterable { case id, billId, method, amountMinor, tenderedMinor, changeMinor, createdAt }
}
