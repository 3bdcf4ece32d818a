import Foundation

extension Bill {
    /// Gives an open or checked-out bill to device `device`, as a manager does with a lost or
    /// revoked till's bills. It keeps its lines, status and money. It does not become the new
    /// device's current bill by itself: its selection is moved to just before `limit` (the
    /// selection of that device's current bill) when it was later, so that device's cashier
    /// keeps the bill they are on and resumes this one when they want. Throws `billSettled` for
    /// a paid or voided bill.
    public mutating func transfer(to device: String, selectedBefore limit: Date) throws(POSError) {
        try requireUnsettled()
        let selection = selectedAt < limit ? selectedAt : Date(timeIntervalSince1970: limit.timeIntervalSince1970 - 0.001).roundedToMilliseconds
        reassign(to: device, selectedAt: selection)
    }
}
