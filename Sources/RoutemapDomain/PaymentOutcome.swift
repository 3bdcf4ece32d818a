/// The result of paying a bill: the payment, the bill (now paid) and the next bill, opened in
/// the same transaction so the till is never without a current bill.
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
