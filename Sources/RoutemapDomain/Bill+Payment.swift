import Foundation

extension Bill {
    /// The payment `request` makes for this bill, after checking, in this order: the bill is
    /// checked out (`billNotCheckedOut`), the amount is the total (`amountMismatch`), then the
    /// tender. Cash: tendered (default: the amount) must cover the total (`insufficientTender`);
    /// change is tendered − total. Card: `tenderedMinor` must be absent or the amount
    /// (`tenderNotAllowed`); no change.
    ///
    /// Does not change the bill: call ``markPaid()`` and record the payment in one transaction.
    public func payment(for request: PaymentRequest, id: String, createdAt: Date) throws(POSError) -> Payment {
        try requireCheckedOut()
        guard request.amountMinor == totalMinor else {
            throw .amountMismatch(expectedMinor: totalMinor, receivedMinor: request.amountMinor)
        }
        let tendered: Int64
        switch request.method {
        case .cash:
            tendered = request.tenderedMinor ?? request.amountMinor
            guard tendered >= totalMinor else {
                throw .insufficientTender(totalMinor: totalMinor, tenderedMinor: tendered)
            }
        case .card:
            guard request.tenderedMinor == nil || request.tenderedMinor == request.amountMinor else {
                throw .tenderNotAllowed
            }
            tendered = request.amountMinor
        }
        // tendered >= total >= 0, so the difference cannot overflow.
        return Payment(
            id: id, billId: self.id, method: request.method, amountMinor: request.amountMinor,
            tenderedMinor: tendered, changeMinor: tendered - totalMinor, createdAt: createdAt)
    }
}
