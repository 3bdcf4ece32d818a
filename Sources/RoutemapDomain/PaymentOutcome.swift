/// The result of paying a bill: the payment, the bill (now paid, or still checked out after a
/// partial payment) and the next bill: after the payment that completes the bill, the one made
/// current in the same transaction so the till is never without a current bill (the device's
/// empty open bill when it had one, else a bill opened then); after a partial payment, the bill
/// itself, still current.
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
