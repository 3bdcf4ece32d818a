import Foundation

extension Bill {
    /// Gives an open or checked-out bill to device `device`, as a manager does with a lost or
    /// revoked till's bills. It keeps its lines, status and money. It does not become the new
    /// device's current bill by itself, nor its fallback: its selection is set to
    /// ``transferredSelection``, before any bill the device selected, so after a void (the bill
    /// selected before becomes current) or a payment (an empty bill is taken up) the device's
    /// own bills come first, and its cashier resumes this one when the customer is there.
    /// Throws `billSettled` for a paid or voided bill.
    public mutating func transfer(to device: String) throws(POSError) {
        try requireUnsettled()
        reassign(to: device, selectedAt: Bill.transferredSelection)
    }

    /// The selection time of a bill transferred and not yet resumed: the earliest the stores
    /// keep, so it sorts after every bill its device selected. (`selectedAt` orders a device's
    /// bills for the server only; no answer shows it.)
    public static let transferredSelection = Date(timeIntervalSince1970: 0)
}
