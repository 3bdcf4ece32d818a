extension Bill {
    /// Gives the open bill `discount`, replacing the one it had, or takes its discount off
    /// (`nil`). Giving it the discount it already has, or removing none, changes nothing (no new
    /// version). Throws `billNotOpen`: a checked-out bill's checkout is cancelled first.
    public mutating func setDiscount(_ newDiscount: BillDiscount?) throws {
        try requireOpen()
        guard newDiscount != discount else { return }
        try replaceDiscount(newDiscount)
    }

    /// Whether a till whose limit is `limitBasisPoints` may give this bill `discount` (a
    /// manager may give any): its share of the subtotal now (``BillDiscount/share(ofSubtotal:)``)
    /// is within the limit. Throws `discountNeedsManager` otherwise.
    public func requireWithinTillLimit(_ discount: BillDiscount, limitBasisPoints: Int) throws(POSError) {
        let share = discount.share(ofSubtotal: subtotalMinor)
        guard share <= limitBasisPoints else { throw .discountNeedsManager(limitBasisPoints: limitBasisPoints, shareBasisPoints: share) }
    }
}
