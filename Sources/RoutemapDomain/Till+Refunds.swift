import Foundation

/// A manager gives money back on a paid bill (a return, an overcharge), by the payment's method,
/// in one or several refunds that together never exceed the payment. A bill paid by several
/// payments (split tender) is refunded payment by payment: each refund names the one it gives
/// back part of.
extension Till {
    /// Refunds `amountMinor` of paid bill `billId` with `reason`, for a manager: the bill stays
    /// paid and unchanged; the refund is recorded beside it and goes back by its payment's
    /// method. `paymentId` names the payment (one of the bill's); it may be left out when the
    /// bill has one payment. One transaction, committed with `full` durability (it is money, as
    /// paying is): it loads the bill first, which serializes it with every other change of the
    /// bill (PostgreSQL locks the bill's row; SQLite has one writer), then sums the earlier
    /// refunds, so two refunds at once never together exceed the payment.
    ///
    /// Refused before anything is read: `managerOnly` for a till, ``InvalidInput`` for a reason
    /// that breaks ``BillVoiding``'s rule or an amount below 1. Then `billNotFound`;
    /// `billNotPaid` and `refundExceedsPayment` (the named payment's amount less its earlier
    /// refunds) are state conflicts, recorded under the key; `refundNeedsPayment` (several
    /// payments, none named) and `unknownPayment` (not one of the bill's) are not.
    public func refund(
        billId: String, paymentId: String? = nil, amountMinor: Int64, reason: String, caller: BillCaller,
        idempotency: IdempotencyKey<RefundOutcome>?
    ) async throws -> IdempotentOutcome<RefundOutcome> {
        guard caller.role == .manager else { throw POSError.managerOnly }
        try BillVoiding.checkedReason(reason)
        guard amountMinor >= 1 else { throw InvalidInput(field: "amountMinor", rule: "at least 1") }
        return try await write(device: caller.deviceId, durability: .full, idempotency: idempotency) { transaction in
            let bill = try reachableBill(billId, caller: caller, in: transaction)
            let payments = try Self.settledPayments(of: bill)
            let payment = try Self.payment(paymentId, of: payments)
            // The bill's refunds and each payment's, built once: the named payment's limit is
            // its own, what the outcome reports is the bill's.
            let (all, ofPayments) = try BillRefunds.byPayment(refunds: try transaction.refunds(billId: bill.id), payments: payments)
            guard let ofPayment = ofPayments[payment.id] else {
                throw InvariantViolation("payment \(payment.id) is not one of bill \(bill.id)'s")
            }
            guard amountMinor <= ofPayment.refundableMinor else {
                throw POSError.refundExceedsPayment(refundableMinor: ofPayment.refundableMinor)
            }
            let refund = Refund(
                id: Identifier.make(prefix: "ref_"), billId: bill.id, paymentId: payment.id, method: payment.method, amountMinor: amountMinor,
                reason: reason, deviceId: caller.deviceId, createdAt: timestamp())
            try transaction.insert(refund)
            return RefundOutcome(
                refund: refund, refundedMinor: all.refundedMinor + amountMinor, refundableMinor: all.refundableMinor - amountMinor)
        }
    }

    /// The refunds of bill `billId`, oldest first, with what they sum to and what is left to
    /// refund (Σ over its payments), for a manager (`managerOnly` for a till). A bill with none
    /// lists none; one that is not paid has nothing refundable. Throws `billNotFound`.
    public func refunds(billId: String, caller: BillCaller) throws -> BillRefunds {
        guard caller.role == .manager else { throw POSError.managerOnly }
        let bill = try bill(id: billId, caller: caller)
        guard bill.status == .paid else { return try BillRefunds(refunds: [], paidMinor: 0) }
        return try Self.settledRefunds(of: bill, reading: store.refunds(billId:))
    }

    /// The refunds of `bill` over its payments, read by `refunds` (a transaction's or the
    /// store's). Throws `billNotPaid` with the bill's status unless it is paid.
    static func settledRefunds(of bill: Bill, reading refunds: (String) throws -> [Refund]) throws -> BillRefunds {
        let payments = try settledPayments(of: bill)
        return try BillRefunds(refunds: try refunds(bill.id), payments: payments)
    }

    /// The payments of a paid bill, oldest first (at least one). Throws `billNotPaid` with the
    /// bill's status unless it is paid.
    static func settledPayments(of bill: Bill) throws -> [Payment] {
        guard bill.status == .paid else { throw POSError.billNotPaid(bill.status) }
        guard !bill.payments.isEmpty else { throw InvariantViolation("paid bill \(bill.id) has no payment") }
        return bill.payments
    }

    /// The payment `id` names among `payments`; without an id, the only one. Throws
    /// `unknownPayment` or `refundNeedsPayment`.
    static func payment(_ id: String?, of payments: [Payment]) throws(POSError) -> Payment {
        if let id {
            guard let named = payments.first(where: { $0.id == id }) else { throw .unknownPayment(id) }
            return named
        }
        guard payments.count == 1, let only = payments.first else { throw .refundNeedsPayment(paymentIds: payments.map(\.id)) }
        return only
    }
}
