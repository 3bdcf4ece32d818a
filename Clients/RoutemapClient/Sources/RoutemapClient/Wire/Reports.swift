/// `GET /v1/reports/sales` (managers only): what the tills took in a period [`from`, `to`), the
/// bills those payments paid, the bills voided in it, the refunds made in it, the tips its
/// payments carried, and the bills unsettled now. Money in
/// minor units of ``currency``.
public struct SalesReport: Codable, Sendable, Hashable, WireObjectWithKeys {
    /// The period's first instant (included), ISO 8601 in UTC with milliseconds.
    public var from: String
    /// The first instant after the period (excluded), ISO 8601 in UTC with milliseconds.
    public var to: String
    /// The server's currency.
    public var currency: String
    public var payments: Payments
    public var sales: Sales
    public var voids: Voids
    public var refunds: Refunds
    public var tips: Tips
    public var unsettledNow: Unsettled

    enum CodingKeys: String, CodingKey, CaseIterable { case from, to, currency, payments, sales, voids, refunds, tips, unsettledNow }

    /// The payments made in the period: `amountMinor` is the sales taken, tips left out.
    public struct Payments: Codable, Sendable, Hashable {
        public var count: Int
        public var amountMinor: Int64
        public var byMethod: ByMethod
    }

    /// The payments by method.
    public struct ByMethod: Codable, Sendable, Hashable {
        public var card: CardTakings
        public var cash: CashTakings
    }

    /// The card payments.
    public struct CardTakings: Codable, Sendable, Hashable {
        public var count: Int
        public var amountMinor: Int64
    }

    /// The cash payments: the drawer gained `tenderedMinor − changeMinor`, which is `amountMinor`
    /// plus the cash tips (``Tips/cash``).
    public struct CashTakings: Codable, Sendable, Hashable {
        public var count: Int
        public var amountMinor: Int64
        public var tenderedMinor: Int64
        public var changeMinor: Int64
    }

    /// The bills paid in the period (a bill is in the period its payment is), their totals
    /// summed, and what was sold on them by menu item: gross (``subtotalMinor``, the items sum
    /// to it), the ``discounts`` given, net (``discountedSubtotalMinor``, the tax was on it).
    public struct Sales: Codable, Sendable, Hashable {
        public var bills: Int
        /// Σ of the bills' subtotals, before discounts.
        public var subtotalMinor: Int64
        /// The discounts that took something off these bills, and what they took.
        public var discounts: MethodTotals
        /// `subtotalMinor − discounts.amountMinor`.
        public var discountedSubtotalMinor: Int64
        public var taxMinor: Int64
        public var totalMinor: Int64
        /// The largest amount first, then by menu item id.
        public var items: [SalesItem]
    }

    /// The bills voided in the period and the total they held.
    public struct Voids: Codable, Sendable, Hashable {
        public var count: Int
        public var totalMinor: Int64
    }

    /// The refunds made in the period, by their payment's method: the drawer holds the cash
    /// payments' amount less `cash.amountMinor`, plus its float.
    public struct Refunds: Codable, Sendable, Hashable {
        public var count: Int
        public var amountMinor: Int64
        public var card: MethodTotals
        public var cash: MethodTotals
    }

    /// The tips the period's payments carried, by method: not sales (neither in ``payments``'
    /// amounts nor in ``sales``). `count` is how many payments carried a tip.
    public struct Tips: Codable, Sendable, Hashable {
        public var count: Int
        public var amountMinor: Int64
        public var card: MethodTotals
        public var cash: MethodTotals
    }

    /// The bills open and checked out when the report was read, on every device.
    public struct Unsettled: Codable, Sendable, Hashable {
        public var open: Int
        public var checkedOut: Int
        /// Money expected but not yet taken.
        public var checkedOutTotalMinor: Int64
    }
}

/// The refunds of a report's period that went back by one method, or the tips that came in by
/// one (`MethodTotals` in openapi.yaml).
public struct MethodTotals: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var count: Int
    public var amountMinor: Int64

    enum CodingKeys: String, CodingKey, CaseIterable { case count, amountMinor }
}

/// The name ``MethodTotals`` had before tips shared it.
@available(*, deprecated, renamed: "MethodTotals")
public typealias RefundTotals = MethodTotals

/// One menu item's sales in a report's period.
public struct SalesItem: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var menuItemId: String
    /// The name on the lines (the latest paid line's, should the item have been renamed).
    public var name: String
    public var quantity: Int
    /// The lines' amount before tax.
    public var amountMinor: Int64

    enum CodingKeys: String, CodingKey, CaseIterable { case menuItemId, name, quantity, amountMinor }
}
