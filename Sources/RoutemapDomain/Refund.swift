import Foundation

/// Money a manager gave back on a paid bill: a customer returned something, or was overcharged.
/// A bill may have several, each of one of its payments, together at most that payment's amount. The bill itself does not
/// change (it stays paid, with its totals): its refunds are listed beside it.
public struct Refund: Sendable, Hashable, Identifiable {
    /// `ref_` followed by 22 random base62 characters.
    public let id: String
    public let billId: String
    /// The payment it gives back part of.
    public let paymentId: String
    /// The payment's method: cash from the drawer, or back to the card. A refund has no method
    /// of its own.
    public let method: PaymentMethod
    /// At least 1.
    public let amountMinor: Int64
    /// Why, as the manager gave it (``BillVoiding``'s rule for a reason).
    public let reason: String
    /// The manager's device that made it.
    public let deviceId: String
    public let createdAt: Date

    public init(
        id: String, billId: String, paymentId: String, method: PaymentMethod, amountMinor: Int64, reason: String, deviceId: String,
        createdAt: Date
    ) {
        self.id = id
        self.billId = billId
        self.paymentId = paymentId
        self.method = method
        self.amountMinor = amountMinor
        self.reason = reason
        self.deviceId = deviceId
        self.createdAt = createdAt
    }
}

/// A bill's refunds and what they leave: the answer to listing them, and, with the refund just
/// made, to making one.
public struct BillRefunds: Sendable, Hashable {
    /// Oldest first.
    public let refunds: [Refund]
    /// Σ of the refunds' amounts.
    public let refundedMinor: Int64
    /// What may still be refunded: the payments' amounts (together the bill's total: a refund
    /// gives back sale money, never the tip) less ``refundedMinor`` (0 for a bill that is not
    /// paid). Each payment's own limit is its amount less its refunds.
    public let refundableMinor: Int64

    /// The refunds of a bill paid by `payments`: ``init(refunds:paidMinor:)`` with their amounts'
    /// sum, after checking each payment's refunds stay within it.
    public init(refunds: [Refund], payments: [Payment]) throws(InvariantViolation) {
        self = try Self.byPayment(refunds: refunds, payments: payments).bill
    }

    /// The refunds of a bill paid by `payments` (``init(refunds:payments:)``), and each
    /// payment's own by its id (``init(refunds:paidMinor:)`` with its amount): what a new refund
    /// of one of them is held to, built by the same pass that checks them.
    static func byPayment(
        refunds: [Refund], payments: [Payment]
    ) throws(InvariantViolation) -> (bill: BillRefunds, ofPayment: [String: BillRefunds]) {
        var paid: Int64 = 0
        var ofPayment: [String: BillRefunds] = [:]
        for payment in payments {
            paid = try SalesReport.sum(paid, payment.amountMinor, "a bill's payments")
            ofPayment[payment.id] = try BillRefunds(refunds: refunds.filter { $0.paymentId == payment.id }, paidMinor: payment.amountMinor)
        }
        guard refunds.allSatisfy({ ofPayment[$0.paymentId] != nil }) else {
            throw InvariantViolation("a bill's refund names a payment of another bill")
        }
        return (try BillRefunds(refunds: refunds, paidMinor: paid), ofPayment)
    }

    /// The refunds of a bill paid `paidMinor` (0 when it is not paid). Throws
    /// ``InvariantViolation`` when they sum beyond 64 bits or beyond the payment, which the
    /// rules never let happen.
    public init(refunds: [Refund], paidMinor: Int64) throws(InvariantViolation) {
        var refunded: Int64 = 0
        for refund in refunds { refunded = try SalesReport.sum(refunded, refund.amountMinor, "a bill's refunds") }
        guard refunded <= paidMinor else {
            throw InvariantViolation("a bill's refunds (\(refunded)) exceed its payment (\(paidMinor))")
        }
        self.refunds = refunds
        self.refundedMinor = refunded
        self.refundableMinor = paidMinor - refunded
    }
}

/// What ``Till/refund(billId:amountMinor:reason:caller:idempotency:)`` did: the refund made,
/// and the bill's refunds with it.
public struct RefundOutcome: Sendable, Hashable {
    public let refund: Refund
    /// Σ of the bill's refunds, this one included.
    public let refundedMinor: Int64
    /// What may still be refunded on the bill after this one.
    public let refundableMinor: Int64

    public init(refund: Refund, refundedMinor: Int64, refundableMinor: Int64) {
        self.refund = refund
        self.refundedMinor = refundedMinor
        self.refundableMinor = refundableMinor
    }
}
