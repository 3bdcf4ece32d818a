extension Bill {
    /// Names the bill `newLabel`, replacing its label, or takes its label off (`nil`), while it
    /// is open or checked out: a checked-out bill waiting for its table to pay is still one to
    /// tell apart. Giving it the label it has changes nothing (no new version). Throws
    /// `billSettled` for a paid or voided bill: its record is closed, as for every other change.
    public mutating func setLabel(_ newLabel: BillLabel?) throws(POSError) {
        try requireUnsettled()
        guard newLabel != billLabel else { return }
        replaceLabel(newLabel)
    }
}
