/// Every sale's receipt, for the till that made it or a manager (a reprint, a customer's
/// request for a copy).
extension Till {
    /// The receipt of paid bill `billId`, if `caller` reaches it (its own bill; any bill for a
    /// manager), with this till's shop details. Throws `billNotFound` (for a till, another
    /// device's bill is indistinguishable from a missing one), or `billNotPaid` with the
    /// bill's status when it has no payment yet (open, checked out, voided).
    ///
    /// Three reads, not one snapshot: a paid bill and its payment never change again, and a
    /// refund committed between the reads is simply on the receipt or not yet.
    public func receipt(billId: String, caller: BillCaller) throws -> Receipt {
        let bill = try bill(id: billId, caller: caller)
        guard bill.status == .paid else { throw POSError.billNotPaid(bill.status) }
        guard let payment = try store.payment(billId: bill.id) else { throw InvariantViolation("paid bill \(bill.id) has no payment") }
        let refunds = try BillRefunds(refunds: try store.refunds(billId: bill.id), paidMinor: payment.amountMinor)
        return Receipt(shop: shop, bill: bill, payment: payment, refunds: refunds)
    }
}
