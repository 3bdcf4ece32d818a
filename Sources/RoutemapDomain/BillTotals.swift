/// A bill's money: the subtotal of its lines, what its discount takes off it, the tax and the
/// total.
///
/// Without a discount the tax is computed per line, then summed. With one, it is computed once
/// on the discounted subtotal (a bill-level discount belongs to no line), rounded half to even,
/// and the total is the discounted subtotal plus that tax.
struct BillTotals: Sendable, Hashable {
    /// Σ of the lines' totals, before any discount.
    let subtotalMinor: Int64
    /// What the discount takes off the subtotal: 0 to `subtotalMinor`.
    let discountMinor: Int64
    let taxMinor: Int64
    let totalMinor: Int64

    /// The totals of `lines` at `taxRate` less `discount`, or `nil` if any sum overflows `Int64`.
    /// Each line's tax is computed only without a discount: with one, only the tax on the
    /// discounted subtotal is.
    init?(lines: [BillLine], taxRate: TaxRate, discount: BillDiscount? = nil) {
        let taxPerLine = discount == nil
        var subtotal: Int64 = 0
        var tax: Int64 = 0
        for line in lines {
            let (newSubtotal, subtotalOverflow) = subtotal.addingReportingOverflow(line.lineTotalMinor)
            guard !subtotalOverflow else { return nil }
            subtotal = newSubtotal
            if taxPerLine {
                let (newTax, taxOverflow) = tax.addingReportingOverflow(taxRate.tax(onMinor: line.lineTotalMinor))
                guard !taxOverflow else { return nil }
                tax = newTax
            }
        }
        var discounted = subtotal
        var discountMinor: Int64 = 0
        if let discount {
            // Within 0...subtotal: the subtraction cannot overflow, and the tax on what is left
            // cannot exceed it. (A line's tax is at most the line, so the per-line sum this
            // skips could not have overflowed where the subtotal did not.)
            discountMinor = discount.minor(off: subtotal)
            discounted = subtotal - discountMinor
            tax = taxRate.tax(onMinor: discounted)
        }
        let (total, overflow) = discounted.addingReportingOverflow(tax)
        guard !overflow else { return nil }
        self.subtotalMinor = subtotal
        self.discountMinor = discountMinor
        self.taxMinor = tax
        self.totalMinor = total
    }
}
