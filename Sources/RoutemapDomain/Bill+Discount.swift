extension Bill {
    /// Gives the open bill `discount`, replacing the one it had, or takes its discount off
    /// (`nil`). Giving it the discount it already has, or removing none, changes nothing (no new
    /// version). Throws `billNotOpen` (a checked-out bill's checkout is cancelled first), then,
    /// for a till (`tillLimitBasisPoints` set; a manager gives any), `discountNeedsManager` when
    /// the discount's share of the subtotal now (``BillDiscount/share(ofSubtotal:)``) is past
    /// the limit. Removing a discount needs no limit: it only raises the bill.
    public mutating func setDiscount(_ newDiscount: BillDiscount?, tillLimitBasisPoints: Int? = nil) throws {
        try requireOpen()
        if let newDiscount, let limit = tillLimitBasisPoints {
            let share = newDiscount.share(ofSubtotal: subtotalMinor)
            guard share <= limit else { throw POSError.discountNeedsManager(limitBasisPoints: limit, shareBasisPoints: share) }
        }
        guard newDiscount != discount else { return }
        try replaceDiscount(newDiscount)
    }
}
