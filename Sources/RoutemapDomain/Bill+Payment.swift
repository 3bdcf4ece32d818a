import Foundation

extension Bill {
    /// `request` checked against this bill, in this order: the bill is checked out
    /// (`billNotCheckedOut`), the amount is what is due (``dueMinor``: the total less earlier
    /// payments; `amountMismatch`), or for a partial request at most that (`amountExceedsDue`),
    /// then the tender, which pays the amount and the tip on top of it (the charge). Cash:
    /// tendered (default: the charge) must cover the charge (`insufficientTender`); change is
    /// tendered − amount − tip. Card: `tenderedMinor` must be absent or the charge
    /// (`tenderNotAllowed`); no change. A charge that would not fit in 64 bits (only an amount
    /// within 10^13 of `Int64.max` can reach it) cannot be tendered either: `insufficientTender`.
    ///
    /// Does not change the bill: call ``record(_:)`` with
    /// ``CheckedPayment/payment(id:receiptNumber:createdAt:deviceId:)`` and insert the payment in one
    /// transaction. The receipt number is given only after every check has passed, so a refused
    /// payment takes none.
    public func check(_ request: PaymentRequest) throws(POSError) -> CheckedPayment {
        try requireCheckedOut()
        let due = dueMinor
        if request.partial {
            // PaymentRequest keeps a partial amount at 1 or more.
            guard request.amountMinor <= due else {
                throw .amountExceedsDue(dueMinor: due, receivedMinor: request.amountMinor)
            }
        } else {
            guard request.amountMinor == due else {
                throw .amountMismatch(expectedMinor: due, receivedMinor: request.amountMinor)
            }
        }
        // The tip is within PaymentRequest.tipRange, so at least 0.
        let (charged, overflow) = request.amountMinor.addingReportingOverflow(request.tipMinor)
        guard !overflow else { throw .insufficientTender(chargedMinor: .max, tenderedMinor: request.tenderedMinor ?? .max) }
        let tendered: Int64
        switch request.method {
        case .cash:
            tendered = request.tenderedMinor ?? charged
            guard tendered >= charged else {
                throw .insufficientTender(chargedMinor: charged, tenderedMinor: tendered)
            }
        case .card:
            guard request.tenderedMinor == nil || request.tenderedMinor == charged else {
                throw .tenderNotAllowed
            }
            tendered = charged
        }
        // tendered >= charged >= 0, so the difference cannot overflow.
        return CheckedPayment(
            billId: id, method: request.method, amountMinor: request.amountMinor, tipMinor: request.tipMinor, tenderedMinor: tendered,
            changeMinor: tendered - charged, completesBill: request.amountMinor == due)
    }
}

/// A payment request that passed its bill's checks (``Bill/check(_:)``): everything the payment
/// records but what the paying transaction gives it last, its id, receipt number and time.
public struct CheckedPayment: Sendable, Hashable {
    public let billId: String
    public let method: PaymentMethod
    public let amountMinor: Int64
    public let tipMinor: Int64
    public let tenderedMinor: Int64
    public let changeMinor: Int64
    /// Whether the payment pays what is left of the bill, so that recording it makes the bill paid.
    public let completesBill: Bool

    /// The payment, numbered `receiptNumber` (the store's next, ``POSTransaction/nextReceiptNumber()``),
    /// taken by device `deviceId` (`nil`: a payment recorded without one).
    public func payment(id: String, receiptNumber: Int64, createdAt: Date, deviceId: String?) -> Payment {
        Payment(
            id: id, billId: billId, receiptNumber: receiptNumber, method: method, amountMinor: amountMinor, tipMinor: tipMinor,
            tenderedMinor: tenderedMinor, changeMinor: changeMinor, createdAt: createdAt, deviceId: deviceId)
    }
}
