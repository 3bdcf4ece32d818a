extension Bill {
    /// Gives the open bill `discount`, replacing the one it had, or takes its discount off
    /// (`nil`). Giving it the discount it already has, or removing none, changes nothing (no new
    /// version), whoever asks: a till re-sending the discount a manager gave is not refused, as
    /// no money moves. Throws `billNotOpen` (a checked-out bill's checkout is cancelled first),
    /// then, for a till (`tillLimitBasisPoints` set; a manager gives any), `discountNeedsManager`
    /// when a new discount's share of the subtotal now (``BillDiscount/share(ofSubtotal:)``) is
    /// past the limit. Removing a discount needs no limit: it only raises the bill.
    public mutating func setDiscount(_ newDiscount: BillDiscount?, tillLimitBasisPoints: Int? = nil) throws {
        try requireOpen()
        guard newDiscount != discount else { return }
        if let newDiscount, let limit = tillLimitBasisPoints {
            let share = newDiscount.share(ofSubtotal: subtotalMinor)
            guard share <= limit else { throw POSError.discountNeedsManager(limitBasisPoints: limit, shareBasisPoints: share) }
        }
        try replaceDiscount(newDiscount)
    }
}
