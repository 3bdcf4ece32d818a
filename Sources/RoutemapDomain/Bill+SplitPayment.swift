import Foundation

/// Split tender: a checked-out bill may be paid by several payments (``PaymentRequest/partial``),
/// each with its own method, tip, tender, change and receipt number. It stays checked out, and
/// shows what its payments paid and what is still due, until their amounts add up to its total:
/// the payment that does makes it paid. A bill with a payment but not yet paid is "partly paid":
/// its checkout cannot be cancelled nor the bill voided (the money taken would be lost from the
/// record); the cashier takes the rest, then a manager refunds if need be.
extension Bill {
    /// What the bill's payments paid: ``paymentsMinor``; a paid bill's total (also one made
    /// paid without its payments, which only a bill built or stored so can be).
    public var paidMinor: Int64 {
        status == .paid ? totalMinor : paymentsMinor
    }

    /// Σ of ``payments``' amounts (never their tips), 0 without any: what the stores keep beside
    /// the bill (`paid_minor`) and compare with what they read. The one place the sum is taken:
    /// the initializer and ``record(_:)`` keep it within the total, so it always fits (the total
    /// stands in for a sum that did not, which no bill can have).
    public var paymentsMinor: Int64 {
        Self.sum(of: payments) ?? totalMinor
    }

    /// The payment that paid what was left (its only one unless split), or `nil` while the bill
    /// is not paid.
    public var completingPayment: Payment? { status == .paid ? payments.last : nil }

    /// What is left to pay: the total less ``paidMinor`` while the bill is open or checked out;
    /// 0 once it is paid or voided.
    public var dueMinor: Int64 {
        status.isUnsettled ? totalMinor - paidMinor : 0
    }

    /// Checked out with at least one payment, and not yet paid.
    public var isPartlyPaid: Bool {
        status == .checkedOut && !payments.isEmpty
    }

    /// Records `payment` (made from this bill's ``check(_:)``): it joins ``payments`` and, when
    /// its amount is what was due, the bill becomes paid. Throws `billNotCheckedOut`, or
    /// `amountExceedsDue` for a payment of more than is due (one not checked against this bill).
    public mutating func record(_ payment: Payment) throws(POSError) {
        try requireCheckedOut()
        let due = dueMinor
        guard payment.billId == id, payment.amountMinor >= 0, payment.amountMinor <= due else {
            throw .amountExceedsDue(dueMinor: due, receivedMinor: payment.amountMinor)
        }
        append(payment, becoming: payment.amountMinor == due ? .paid : .checkedOut)
    }

    /// Throws `billPartlyPaid` when the bill is partly paid: what cancelling its checkout and
    /// voiding it check.
    func requireNotPartlyPaid() throws(POSError) {
        guard !isPartlyPaid else { throw .billPartlyPaid(paidMinor: paidMinor) }
    }

    /// Throws unless `payments` can be `bill`'s: all of it, together within 64 bits and its
    /// total; none while it is open or voided; less than its total while it is checked out, and
    /// exactly it once paid (a paid bill without any is one built or stored without its record).
    static func checkPayments(_ payments: [Payment], of bill: Bill) throws(InvariantViolation) {
        guard !payments.isEmpty else { return }
        guard payments.allSatisfy({ $0.billId == bill.id }) else {
            throw InvariantViolation("bill \(bill.id): a payment of another bill")
        }
        guard let sum = sum(of: payments), sum <= bill.totalMinor else {
            throw InvariantViolation("bill \(bill.id): its payments sum beyond its total \(bill.totalMinor)")
        }
        switch bill.status {
        case .open, .voided:
            throw InvariantViolation("bill \(bill.id): a \(bill.status.rawValue) bill with payments")
        case .checkedOut where sum == bill.totalMinor:
            throw InvariantViolation("bill \(bill.id): checked out, but its payments pay its total")
        case .paid where sum != bill.totalMinor:
            throw InvariantViolation("bill \(bill.id): paid, but its payments sum to \(sum), not its total \(bill.totalMinor)")
        default:
            return
        }
    }

    /// Σ of the payments' amounts, or `nil` when it does not fit in 64 bits.
    static func sum(of payments: [Payment]) -> Int64? {
        var sum: Int64 = 0
        for payment in payments {
            let (next, overflow) = sum.addingReportingOverflow(payment.amountMinor)
            guard !overflow, payment.amountMinor >= 0 else { return nil }
            sum = next
        }
        return sum
    }
}
