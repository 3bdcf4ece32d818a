/// A bill's money: the subtotal, the tax computed per line then summed, and their sum.
struct BillTotals: Sendable, Hashable {
    let subtotalMinor: Int64
    let taxMinor: Int64
    let totalMinor: Int64

    static let zero = BillTotals(subtotalMinor: 0, taxMinor: 0, totalMinor: 0)

    /// The totals of `lines` at `taxRate`, or `nil` if any sum overflows `Int64`.
    init?(lines: [BillLine], taxRate: TaxRate) {
        var subtotal: Int64 = 0
        var tax: Int64 = 0
        for line in lines {
            let (newSubtotal, subtotalOverflow) = subtotal.addingReportingOverflow(line.lineTotalMinor)
            let (newTax, taxOverflow) = tax.addingReportingOverflow(taxRate.tax(onMinor: line.lineTotalMinor))
            guard !subtotalOverflow, !taxOverflow else { return nil }
            subtotal = newSubtotal
            tax = newTax
        }
        let (total, overflow) = subtotal.addingReportingOverflow(tax)
        guard !overflow else { return nil }
        self.init(subtotalMinor: subtotal, taxMinor: tax, totalMinor: total)
    }

    private init(subtotalMinor: Int64, taxMinor: Int64, totalMinor: Int64) {
        self.subtotalMinor = subtotalMinor
        self.taxMinor = taxMinor
        self.totalMinor = totalMinor
    }
}
