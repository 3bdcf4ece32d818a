extension Bill {
    /// Freezes an open, non-empty bill for payment: no edits until the checkout is cancelled.
    /// Throws `billNotOpen` or `billEmpty`.
    public mutating func checkout() throws(POSError) {
        try requireOpen()
        guard !lines.isEmpty else { throw .billEmpty }
        move(to: .checkedOut)
    }

    /// Reopens a checked-out bill for edits. Throws `billNotCheckedOut`, or `billPartlyPaid`
    /// once part of it is paid (its total is what those payments were taken against).
    public mutating func cancelCheckout() throws(POSError) {
        try requireCheckedOut()
        try requireNotPartlyPaid()
        move(to: .open)
    }
}
