/// What a paid bill's receipt shows: who sold (the shop), what (the bill's lines and totals, at
/// the bill's tax rate), how it was paid (the payment, with its receipt number and time) and
/// what was given back since (the bill's refunds). Read, never stored: the bill, its payment
/// and its refunds are the record.
public struct Receipt: Sendable, Hashable {
    public let shop: ShopDetails
    /// The paid bill.
    public let bill: Bill
    /// Its payment: ``Payment/receiptNumber`` numbers the receipt, ``Payment/createdAt`` is when
    /// it was paid.
    public let payment: Payment
    /// Its refunds, oldest first, and what they sum to.
    public let refunds: BillRefunds

    public init(shop: ShopDetails, bill: Bill, payment: Payment, refunds: BillRefunds) {
        self.shop = shop
        self.bill = bill
        self.payment = payment
        self.refunds = refunds
    }
}
