import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

@Suite("Sales report: the period, the sums, the order of items, a manager's only")
struct SalesReportTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("a period is [from, to): to after from, at most 366 days; from is in it, to is not")
    func period() throws {
        #expect(throws: SalesPeriod.Refusal.empty) { try SalesPeriod(from: Self.t0, to: Self.t0) }
        #expect(throws: SalesPeriod.Refusal.empty) { try SalesPeriod(from: Self.t0, to: Self.t0.addingTimeInterval(-1)) }
        // Equal once kept to the millisecond, as instants are stored.
        #expect(throws: SalesPeriod.Refusal.empty) { try SalesPeriod(from: Self.t0, to: Self.t0.addingTimeInterval(0.0004)) }
        let year = try SalesPeriod(from: Self.t0, to: Self.t0.addingTimeInterval(366 * 86_400))
        #expect(year.to.timeIntervalSince(year.from) == 366 * 86_400)
        #expect(throws: SalesPeriod.Refusal.tooLong) { try SalesPeriod(from: Self.t0, to: Self.t0.addingTimeInterval(366 * 86_400 + 0.001)) }
        let minute = try SalesPeriod(from: Self.t0, to: Self.t0.addingTimeInterval(60))
        #expect(minute.contains(Self.t0))
        #expect(minute.contains(Self.t0.addingTimeInterval(59.999)))
        #expect(!minute.contains(Self.t0.addingTimeInterval(60)))
        #expect(!minute.contains(Self.t0.addingTimeInterval(-0.001)))
    }

    @Test("the payments are card and cash summed; the items are sorted by amount, then by id in byte order")
    func sumsAndOrder() throws {
        let figures = SalesFigures(
            card: SalesReport.Takings(count: 2, amountMinor: 1_550, tenderedMinor: 1_550, changeMinor: 0),
            cash: SalesReport.Takings(count: 3, amountMinor: 707, tenderedMinor: 1_000, changeMinor: 293),
            sales: SalesReport.Sales(
                bills: 5, subtotalMinor: 2_075, taxMinor: 182, totalMinor: 2_257,
                items: [
                    SalesReport.ItemSales(menuItemId: "alpha", name: "Alpha", quantity: 1, amountMinor: 300),
                    SalesReport.ItemSales(menuItemId: "latte", name: "Latte", quantity: 3, amountMinor: 1_425),
                    SalesReport.ItemSales(menuItemId: "Zeta", name: "Zeta", quantity: 1, amountMinor: 300),
                    SalesReport.ItemSales(menuItemId: "croissant", name: "Croissant", quantity: 1, amountMinor: 350),
                ]))
        let period = try SalesPeriod(from: Self.t0, to: Self.t0.addingTimeInterval(86_400))
        let report = try SalesReport(period: period, currency: .usd, figures: figures)
        #expect(report.payments.count == 5)
        #expect(report.payments.amountMinor == 2_257)
        #expect(report.payments.card == figures.card && report.payments.cash == figures.cash)
        // "Zeta" before "alpha": 'Z' is 0x5A, 'a' 0x61.
        #expect(report.sales.items.map(\.menuItemId) == ["latte", "croissant", "Zeta", "alpha"])
        #expect(report.sales.totalMinor == 2_257 && report.sales.bills == 5)
        #expect(report.currency == .usd && report.period == period)
    }

    @Test("a sum that does not fit in 64 bits is an invariant violation, never a wrapped number")
    func overflow() throws {
        let period = try SalesPeriod(from: Self.t0, to: Self.t0.addingTimeInterval(60))
        let half = Int64.max / 2 + 1
        let amounts = SalesFigures(
            card: SalesReport.Takings(count: 1, amountMinor: half, tenderedMinor: half, changeMinor: 0),
            cash: SalesReport.Takings(count: 1, amountMinor: half, tenderedMinor: half, changeMinor: 0))
        #expect(throws: InvariantViolation.self) { try SalesReport(period: period, currency: .usd, figures: amounts) }
        let counts = SalesFigures(
            card: SalesReport.Takings(count: Int.max, amountMinor: 0, tenderedMinor: 0, changeMinor: 0),
            cash: SalesReport.Takings(count: 1, amountMinor: 0, tenderedMinor: 0, changeMinor: 0))
        #expect(throws: InvariantViolation.self) { try SalesReport(period: period, currency: .usd, figures: counts) }
        // The largest sum that fits is exact.
        let fits = SalesFigures(
            card: SalesReport.Takings(count: 1, amountMinor: Int64.max - 1, tenderedMinor: Int64.max - 1, changeMinor: 0),
            cash: SalesReport.Takings(count: 1, amountMinor: 1, tenderedMinor: 1, changeMinor: 0))
        #expect(try SalesReport(period: period, currency: .usd, figures: fits).payments.amountMinor == Int64.max)
    }

    @Test("a day rung up on the in-memory store: every number, edges included; a till is refused")
    func day() async throws {
        let store = InMemoryStore(menu: Fixtures.menu)
        let clock = TestClock(Self.t0)
        let till = Till(store: store, taxRate: Fixtures.rate875, currency: .usd, now: clock.function)
        let scenario = try await SalesScenario.ringUp(till: till, clock: clock, device: Fixtures.device, otherDevice: Fixtures.otherDevice)
        let manager = BillCaller(deviceId: "dev_M", role: .manager)
        let report = try till.salesReport(scenario.period, caller: manager)
        let expected = try SalesReport(period: scenario.period, currency: .usd, figures: scenario.expected)
        #expect(report == expected)
        #expect(report.payments.count == 3 && report.payments.amountMinor == 2_257)
        #expect(report.refunds.count == 3 && report.refunds.amountMinor == 333)
        #expect(report.refunds.card == SalesReport.MethodTotals(count: 2, amountMinor: 133))
        #expect(report.refunds.cash == SalesReport.MethodTotals(count: 1, amountMinor: 200))
        // Tips apart from the takings (A's 50 by card, B's 100 in cash; D's and C's are out).
        #expect(report.tips.count == 2 && report.tips.amountMinor == 150)
        #expect(report.tips.card == SalesReport.MethodTotals(count: 1, amountMinor: 50))
        #expect(report.tips.cash == SalesReport.MethodTotals(count: 1, amountMinor: 100))
        #expect(report.unsettledNow.open == 2, "H, and the empty bill the payments left on the first device")
        #expect(throws: POSError.managerOnly) { try till.salesReport(scenario.period, caller: .till(Fixtures.device)) }
        // A period before anything was paid: nothing but what is unsettled now.
        let before = try till.salesReport(try SalesPeriod(from: Self.t0.addingTimeInterval(-100), to: Self.t0), caller: manager)
        #expect(before.payments.count == 0 && before.sales.items.isEmpty && before.voids.count == 0 && before.refunds.count == 0)
        #expect(before.unsettledNow == report.unsettledNow)
    }
}
