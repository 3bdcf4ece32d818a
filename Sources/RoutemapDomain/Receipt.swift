/// What a paid bill's receipt shows: who sold (the shop), what (the bill's lines and totals, at
/// the bill's tax rate), how it was paid (its payments, each with its receipt number and time) and
/// what was given back since (the bill's refunds). Read, never stored: the bill, its payments
/// and its refunds are the record.
public struct Receipt: Sendable, Hashable {
    public let shop: ShopDetails
    /// The paid bill.
    public let bill: Bill
    /// Its payments, oldest first (one, unless the bill was split; never empty): the bill's own
    /// (``Bill/payments``), read from it rather than copied beside it.
    public var payments: [Payment] { bill.payments }
    /// Its refunds, oldest first, and what they sum to.
    public let refunds: BillRefunds

    /// The payment that completed the bill (its only one, unless split):
    /// ``Payment/receiptNumber`` numbers the receipt, ``Payment/createdAt`` is when it was paid.
    public var payment: Payment { payments[payments.count - 1] }
    /// Σ of the payments' tips (`Int64.max` rather than a trap past 64 bits, which takes
    /// some 900,000 payments of the largest tip).
    public var tipMinor: Int64 { Self.saturatingSum(payments.map(\.tipMinor)) }
    /// Σ of what the payments charged: the total and the tips (saturating as ``tipMinor``).
    public var chargedMinor: Int64 { Self.saturatingSum(payments.map(\.chargedMinor)) }

    private static func saturatingSum(_ values: [Int64]) -> Int64 {
        var sum: Int64 = 0
        for value in values {
            let (next, overflow) = sum.addingReportingOverflow(value)
            if overflow { return .max }
            sum = next
        }
        return sum
    }

    /// A receipt of `bill`, paid by its ``Bill/payments``. Throws unless it has at least one.
    public init(shop: ShopDetails, bill: Bill, refunds: BillRefunds) throws(InvariantViolation) {
        guard !bill.payments.isEmpty else { throw InvariantViolation("a receipt of bill \(bill.id) without a payment") }
        self.shop = shop
        self.bill = bill
        self.refunds = refunds
    }
}
