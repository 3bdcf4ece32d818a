import Foundation

extension Bill {
    /// Voids an open or checked-out bill: it keeps its lines and takes no further change.
    /// Throws `billSettled` for a paid or voided bill, `billPartlyPaid` for one partly paid
    /// (the money taken stays on record: finish paying, then refund).
    public mutating func void(reason: String, at date: Date) throws(POSError) {
        try requireUnsettled()
        try requireNotPartlyPaid()
        record(BillVoiding(reason: reason, voidedAt: date))
    }

    /// Makes an open or checked-out bill its device's current one, as of `date`. Throws
    /// `billSettled` for a paid or voided bill.
    public mutating func resume(at date: Date) throws(POSError) {
        try requireUnsettled()
        select(at: date)
    }

    /// Throws `billSettled(status)` unless the bill is open or checked out.
    func requireUnsettled() throws(POSError) {
        guard status.isUnsettled else { throw .billSettled(status) }
    }
}
