import Foundation

/// A manager gives money back on a paid bill (a return, an overcharge), by the payment's method,
/// in one or several refunds that together never exceed the payment.
extension Till {
    /// Refunds `amountMinor` of paid bill `billId` with `reason`, for a manager: the bill stays
    /// paid and unchanged; the refund is recorded beside it and goes back by its payment's
    /// method. One transaction, committed with `full` durability (it is money, as paying is):
    /// it loads the bill first, which serializes it with every other change of the bill
    /// (PostgreSQL locks the bill's row; SQLite has one writer), then sums the earlier refunds,
    /// so two refunds at once never together exceed the payment.
    ///
    /// Refused before anything is read: `managerOnly` for a till, ``InvalidInput`` for a reason
    /// that breaks ``BillVoiding``'s rule or an amount below 1. Then `billNotFound`; `billNotPaid` and `refundExceedsPayment` are
    /// state conflicts, recorded under the key.
    public func refund(billId: String, amountMinor: Int64, reason: String, caller: BillCaller, idempotency: IdempotencyKey<RefundOutcome>?)
        async throws -> IdempotentOutcome<RefundOutcome>
    {
        guard caller.role == .manager else { throw POSError.managerOnly }
        try BillVoiding.checkedReason(reason)
        guard amountMinor >= 1 else { throw InvalidInput(field: "amountMinor", rule: "at least 1") }
        return try await write(device: caller.deviceId, durability: .full, idempotency: idempotency) { transaction in
            let bill = try reachableBill(billId, caller: caller, in: transaction)
            let (payment, earlier) = try Self.settlement(
                of: bill, payment: transaction.payment(billId:), refunds: transaction.refunds(billId:))
            guard amountMinor <= earlier.refundableMinor else {
                throw POSError.refundExceedsPayment(refundableMinor: earlier.refundableMinor)
            }
            let refund = Refund(
                id: Identifier.make(prefix: "ref_"), billId: bill.id, paymentId: payment.id, method: payment.method, amountMinor: amountMinor,
                reason: reason, deviceId: caller.deviceId, createdAt: timestamp())
            try transaction.insert(refund)
            return RefundOutcome(
                refund: refund, refundedMinor: earlier.refundedMinor + amountMinor, refundableMinor: earlier.refundableMinor - amountMinor)
        }
    }

    /// The refunds of bill `billId`, oldest first, with what they sum to and what is left to
    /// refund, for a manager (`managerOnly` for a till). A bill with none lists none; one that
    /// is not paid has nothing refundable. Throws `billNotFound`.
    public func refunds(billId: String, caller: BillCaller) throws -> BillRefunds {
        guard caller.role == .manager else { throw POSError.managerOnly }
        let bill = try bill(id: billId, caller: caller)
        guard bill.status == .paid else { return try BillRefunds(refunds: [], paidMinor: 0) }
        return try Self.settlement(of: bill, payment: store.payment(billId:), refunds: store.refunds(billId:)).refunds
    }

    /// The payment of `bill` and its refunds, read by `payment` and `refunds` (a transaction's
    /// or the store's). Throws `billNotPaid` with the bill's status unless it is paid. Two
    /// reads, not one snapshot, outside a transaction: a payment never changes once made, and
    /// a refund committed between them is simply in the list or not yet.
    static func settlement(
        of bill: Bill, payment: (String) throws -> Payment?, refunds: (String) throws -> [Refund]
    ) throws -> (payment: Payment, refunds: BillRefunds) {
        guard bill.status == .paid else { throw POSError.billNotPaid(bill.status) }
        guard let paid = try payment(bill.id) else { throw InvariantViolation("paid bill \(bill.id) has no payment") }
        return (paid, try BillRefunds(refunds: try refunds(bill.id), paidMinor: paid.amountMinor))
    }
}
