extension Bill {
    /// Freezes an open, non-empty bill for payment: no edits until the checkout is cancelled.
    /// Throws `billNotOpen` or `billEmpty`.
    public mutating func checkout() throws(POSError) {
        try requireOpen()
        guard !lines.isEmpty else { throw .billEmpty }
        move(to: .checkedOut)
    }

    /// Reopens a checked-out bill for edits. Throws `billNotCheckedOut`.
    public mutating func cancelCheckout() throws(POSError) {
        try requireCheckedOut()
        move(to: .open)
    }

    /// Marks a checked-out bill paid (final). Throws `billNotCheckedOut`.
    /// Use ``check(_:)`` first to check the payment itself.
    public mutating func markPaid() throws(POSError) {
        try requireCheckedOut()
        move(to: .paid)
    }
}
