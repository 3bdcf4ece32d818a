/// What a paid bill's receipt shows: who sold (the shop), what (the bill's lines and totals, at
/// the bill's tax rate), how it was paid (its payments, each with its receipt number and time) and
/// what was given back since (the bill's refunds). Read, never stored: the bill, its payment
/// and its refunds are the record.
public struct Receipt: Sendable, Hashable {
    public let shop: ShopDetails
    /// The paid bill.
    public let bill: Bill
    /// Its payments, oldest first (one, unless the bill was split; never empty).
    public let payments: [Payment]
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

    /// A receipt of `bill` paid by `payments` (oldest first). Throws unless there is at least one.
    public init(shop: ShopDetails, bill: Bill, payments: [Payment], refunds: BillRefunds) throws(InvariantViolation) {
        guard !payments.isEmpty else { throw InvariantViolation("a receipt of bill \(bill.id) without a payment") }
        self.shop = shop
        self.bill = bill
        self.payments = payments
        self.refunds = refunds
    }

    /// A receipt of `bill` paid by one `payment`.
    public init(shop: ShopDetails, bill: Bill, payment: Payment, refunds: BillRefunds) {
        self.shop = shop
        self.bill = bill
        self.payments = [payment]
        self.refunds = refunds
    }
}
