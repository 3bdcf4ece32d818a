/// The result of paying a bill: the payment, the bill (now paid) and the next bill, made current
/// in the same transaction so the till is never without a current bill: the device's empty open
/// bill when it had one, else a bill opened then.
public struct PaymentOutcome: Sendable, Hashable {
    public let payment: Payment
    public let bill: Bill
    public let nextBill: Bill

    public init(payment: Payment, bill: Bill, nextBill: Bill) {
        self.payment = payment
        self.bill = bill
        self.nextBill = nextBill
    }
}
