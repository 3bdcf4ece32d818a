/// What voiding a bill did: the voided bill, its status before (open or checked out), and the
/// device's current bill afterwards (the unsettled bill selected last, or a new one when none
/// was left).
public struct VoidOutcome: Sendable, Hashable {
    public let bill: Bill
    public let previousStatus: BillStatus
    public let nextBill: Bill

    public init(bill: Bill, previousStatus: BillStatus, nextBill: Bill) {
        self.bill = bill
        self.previousStatus = previousStatus
        self.nextBill = nextBill
    }
}
