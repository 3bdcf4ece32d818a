/// Every sale's receipt, for the till that made it or a manager (a reprint, a customer's
/// request for a copy).
extension Till {
    /// The receipt of paid bill `billId`, if `caller` reaches it (its own bill; any bill for a
    /// manager), with this till's shop details. Throws `billNotFound` (for a till, another
    /// device's bill is indistinguishable from a missing one), or `billNotPaid` with the
    /// bill's status when it has no payment yet (open, checked out, voided).
    public func receipt(billId: String, caller: BillCaller) throws -> Receipt {
        let bill = try bill(id: billId, caller: caller)
        return try Receipt(shop: shop, bill: bill, refunds: try Self.settledRefunds(of: bill, reading: store.refunds(billId:)))
    }
}
