import RoutemapDomain
import Testing

@Suite("Bill money: line totals, per-line tax, exact totals")
struct BillMoneyTests {
    @Test("a new bill is empty, open, version 1, all zero")
    func newBill() {
        let bill = Fixtures.bill()
        #expect(bill.status == .open)
        #expect(bill.lines.isEmpty)
        #expect(bill.version == 1)
        #expect([bill.subtotalMinor, bill.taxMinor, bill.totalMinor] == [0, 0, 0])
    }

    @Test("tax is computed per line, then summed (not on the subtotal)")
    func perLineTax() throws {
        // Two lines of 40 at 8.75 %: 3.5 → 4 each, 8 in all; on the subtotal of 80 it would be 7.
        let bill = try Fixtures.bill(with: [Fixtures.item("a", price: 40), Fixtures.item("b", price: 40)])
        #expect(bill.lines.map(\.lineTotalMinor) == [40, 40])
        #expect(bill.subtotalMinor == 80)
        #expect(bill.taxMinor == 8)
        #expect(bill.totalMinor == 88)
    }

    @Test("line total is quantity × unit price; total is subtotal + tax exactly")
    func totals() throws {
        var bill = Fixtures.bill()
        try bill.add(Fixtures.latte, quantity: 3)  // 1425 → tax 124.6875 → 125
        try bill.add(Fixtures.croissant, quantity: 2)  // 700 → tax 61.25 → 61
        #expect(bill.lines.map(\.lineTotalMinor) == [1_425, 700])
        #expect(bill.subtotalMinor == 2_125)
        #expect(bill.taxMinor == 186)
        #expect(bill.totalMinor == 2_311)
        #expect(bill.totalMinor == bill.subtotalMinor + bill.taxMinor)
    }

    @Test("the bill keeps the tax rate it was opened with")
    func taxRateKept() throws {
        let bill = try Fixtures.bill(with: [Fixtures.item("a", price: 1_000)], taxRate: TaxRate(basisPoints: 1_000)!)
        #expect(bill.taxRate.basisPoints == 1_000)
        #expect(bill.taxMinor == 100)
    }

    @Test("amounts that would overflow 64 bits are refused, never trap")
    func overflow() throws {
        let expensive = Fixtures.item("yacht", price: Int64.max / 2)
        var bill = Fixtures.bill()
        #expect(throws: POSError.amountOutOfRange(quantity: 3)) { try bill.add(expensive, quantity: 3) }
        try bill.add(expensive, quantity: 1)
        // A second line fits on its own, but the subtotal plus tax would not.
        #expect(throws: POSError.amountOutOfRange(quantity: 1)) { try bill.add(Fixtures.item("yacht2", price: Int64.max / 2), quantity: 1) }
        #expect(throws: POSError.amountOutOfRange(quantity: 2)) { try bill.setQuantity(lineId: bill.lines[0].lineId, quantity: 2, item: expensive) }
        #expect(bill.lines.count == 1)
        #expect(bill.version == 2)
    }

    @Test("building a bill or line from stored values checks them")
    func invariants() throws {
        #expect(throws: InvariantViolation.self) {
            try BillLine(lineId: "l", menuItemId: "m", name: "n", quantity: 0, unitPriceMinor: 1)
        }
        #expect(throws: InvariantViolation.self) {
            try BillLine(lineId: "l", menuItemId: "m", name: "n", quantity: 1, unitPriceMinor: -1)
        }
        #expect(throws: InvariantViolation.self) {
            try BillLine(lineId: "l", menuItemId: "m", name: "n", quantity: 3, unitPriceMinor: .max / 2)
        }
        let big = try BillLine(lineId: "l", menuItemId: "m", name: "n", quantity: 1, unitPriceMinor: .max - 10)
        #expect(throws: InvariantViolation.self) {
            try Bill(id: "b", lines: [big], currency: .usd, taxRate: Fixtures.rate875, createdAt: Fixtures.createdAt)
        }
        #expect(throws: InvariantViolation.self) {
            try Bill(id: "b", currency: .usd, taxRate: Fixtures.rate875, version: 0, createdAt: Fixtures.createdAt)
        }
        let line = try BillLine(lineId: "l", menuItemId: "m", name: "n", quantity: 2, unitPriceMinor: 120)
        let bill = try Bill(id: "b", status: .checkedOut, lines: [line], currency: .usd, taxRate: Fixtures.rate875, version: 7, createdAt: Fixtures.createdAt)
        #expect(bill.totalMinor == 240 + 21)  // 21 = 8.75 % of 240, exactly
        #expect(bill.version == 7)
    }
}
