/// What voiding a bill did: the voided bill, and the device's current bill afterwards (the
/// unsettled bill selected last, or a new one when none was left).
public struct VoidOutcome: Sendable, Hashable {
    public let bill: Bill
    public let nextBill: Bill

    public init(bill: Bill, nextBill: Bill) {
        self.bill = bill
        self.nextBill = nextBill
    }
}
