import Foundation

extension Bill {
    /// `request` checked against this bill, in this order: the bill is checked out
    /// (`billNotCheckedOut`), the amount is the total (`amountMismatch`), then the tender. Cash:
    /// tendered (default: the amount) must cover the total (`insufficientTender`); change is
    /// tendered − total. Card: `tenderedMinor` must be absent or the amount
    /// (`tenderNotAllowed`); no change.
    ///
    /// Does not change the bill: call ``markPaid()`` and record
    /// ``CheckedPayment/payment(id:receiptNumber:createdAt:)`` in one transaction. The receipt
    /// number is given only after every check has passed, so a refused payment takes none.
    public func check(_ request: PaymentRequest) throws(POSError) -> CheckedPayment {
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
        return CheckedPayment(
            billId: id, method: request.method, amountMinor: request.amountMinor, tenderedMinor: tendered, changeMinor: tendered - totalMinor)
    }
}

/// A payment request that passed its bill's checks (``Bill/check(_:)``): everything the payment
/// records but what the paying transaction gives it last, its id, receipt number and time.
public struct CheckedPayment: Sendable, Hashable {
    public let billId: String
    public let method: PaymentMethod
    public let amountMinor: Int64
    public let tenderedMinor: Int64
    public let changeMinor: Int64

    /// The payment, numbered `receiptNumber` (the store's next, ``POSTransaction/nextReceiptNumber()``).
    public func payment(id: String, receiptNumber: Int64, createdAt: Date) -> Payment {
        Payment(
            id: id, billId: billId, receiptNumber: receiptNumber, method: method, amountMinor: amountMinor, tenderedMinor: tenderedMinor,
            changeMinor: changeMinor, createdAt: createdAt)
    }
}
