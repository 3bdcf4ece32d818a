import Foundation
import GRDB
import RoutemapDomain
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// The sales report's aggregate queries on a real database (SQLite, or PostgreSQL when
/// `ROUTEMAP_TEST_DATABASE_URL` is set).
@Suite("Sales report on a real database")
struct SalesReportStorageTests {
    @Test("a day rung up through the till: payments by method, the bills they paid by item, voids, unsettled bills; from is in, to is out")
    func day() async throws {
        let database = try await TestDatabase()
        let other = try await database.enrollDevice()
        let clock = TestClock(Date(timeIntervalSince1970: 1_700_000_000))
        let till = database.till(now: clock.function)
        let scenario = try await SalesScenario.ringUp(till: till, clock: clock, device: database.device, otherDevice: other)
        let figures = try database.store.salesFigures(in: scenario.period)
        #expect(figures.card == scenario.expected.card)
        #expect(figures.cash == scenario.expected.cash)
        #expect(figures.voids == scenario.expected.voids)
        #expect(figures.cardRefunds == scenario.expected.cardRefunds && figures.cashRefunds == scenario.expected.cashRefunds)
        #expect(figures.cardTips == scenario.expected.cardTips && figures.cashTips == scenario.expected.cashTips)
        #expect(figures.unsettled == scenario.expected.unsettled)
        #expect(scenario.openBills == 2)
        #expect(
            figures.sales.bills == scenario.expected.sales.bills && figures.sales.subtotalMinor == scenario.expected.sales.subtotalMinor
                && figures.sales.taxMinor == scenario.expected.sales.taxMinor && figures.sales.totalMinor == scenario.expected.sales.totalMinor)
        // The store's items in any order; the report's in its own.
        #expect(Set(figures.sales.items) == Set(scenario.expected.sales.items))
        let report = try till.salesReport(scenario.period, caller: BillCaller(deviceId: database.device, role: .manager))
        #expect(report == (try SalesReport(period: scenario.period, currency: .usd, figures: scenario.expected)))

        // One millisecond wider at each end: D (paid 1 ms before) and C (paid at the old `to`) are in, F's void too.
        let wider = try SalesPeriod(from: scenario.period.from.addingTimeInterval(-0.001), to: scenario.period.to.addingTimeInterval(0.001))
        let more = try database.store.salesFigures(in: wider)
        #expect(more.cash.count == 2 && more.card.count == 3 && more.voids.count == 2)
        #expect(more.sales.bills == 5)
        // D's refund (1 ms before) and C's (at the old `to`) too.
        #expect(more.cashRefunds == SalesReport.MethodTotals(count: 2, amountMinor: 300))
        #expect(more.cardRefunds == SalesReport.MethodTotals(count: 3, amountMinor: 193))
        // D's tip and C's too; I paid no tip, so is not counted.
        #expect(more.cashTips == SalesReport.MethodTotals(count: 2, amountMinor: 140))
        #expect(more.cardTips == SalesReport.MethodTotals(count: 2, amountMinor: 120))
        // A period with nothing in it: zeros, and the same unsettled bills.
        let empty = try database.store.salesFigures(in: try SalesPeriod(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 60)))
        #expect(empty == SalesFigures(unsettled: scenario.expected.unsettled))
    }

    @Test("a sum that does not fit in 64 bits fails the read: never wrapped, never rounded")
    func overflow() async throws {
        let database = try await TestDatabase()
        let half = Int64.max / 2 + 1
        // Two paid bills whose totals, and payments, together overflow.
        try Self.execute(
            database,
            """
            INSERT INTO bills (id, status, currency, tax_rate_bps, subtotal_minor, tax_minor, total_minor, version, created_at,
                               updated_at, device_id, selected_at)
            VALUES ('bill_big1', 'paid', 'USD', 0, \(half), 0, \(half), 1, '2025-01-01T10:00:00.000Z', '2025-01-01T10:00:00.000Z', NULL,
                    '2025-01-01T10:00:00.000Z'),
                   ('bill_big2', 'paid', 'USD', 0, \(half), 0, \(half), 1, '2025-01-01T10:00:00.000Z', '2025-01-01T10:00:00.000Z', NULL,
                    '2025-01-01T10:00:00.000Z');
            INSERT INTO payments (id, bill_id, receipt_number, method, amount_minor, tendered_minor, change_minor, created_at)
            VALUES ('pay_big1', 'bill_big1', 1, 'card', \(half), \(half), 0, '2025-01-01T10:00:00.000Z'),
                   ('pay_big2', 'bill_big2', 2, 'card', \(half), \(half), 0, '2025-01-01T10:00:01.000Z');
            """)
        let day = try SalesPeriod(from: Date(timeIntervalSince1970: 1_735_689_600), to: Date(timeIntervalSince1970: 1_735_776_000))
        #expect(throws: (any Error).self) { try database.store.salesFigures(in: day) }
        // Each alone fits.
        let first = try SalesPeriod(from: day.from, to: Date(timeIntervalSince1970: 1_735_725_600.5))
        #expect(try database.store.salesFigures(in: first).card.amountMinor == half)
    }

    @Test("a line whose amount does not fit in 64 bits fails the read (SQLite's product would be a REAL)")
    func lineOverflow() async throws {
        let database = try await TestDatabase()
        let price = Int64.max / 2 + 1
        try Self.execute(
            database,
            """
            INSERT INTO bills (id, status, currency, tax_rate_bps, subtotal_minor, tax_minor, total_minor, version, created_at,
                               updated_at, device_id, selected_at)
            VALUES ('bill_big', 'paid', 'USD', 0, 0, 0, 0, 1, '2025-01-01T10:00:00.000Z', '2025-01-01T10:00:00.000Z', NULL,
                    '2025-01-01T10:00:00.000Z');
            INSERT INTO bill_lines (bill_id, position, line_id, menu_item_id, name, quantity, unit_price_minor)
            VALUES ('bill_big', 0, 'line_big', 'latte', 'Latte', 2, \(price));
            INSERT INTO payments (id, bill_id, receipt_number, method, amount_minor, tendered_minor, change_minor, created_at)
            VALUES ('pay_big', 'bill_big', 1, 'card', 0, 0, 0, '2025-01-01T10:00:00.000Z');
            """)
        let day = try SalesPeriod(from: Date(timeIntervalSince1970: 1_735_689_600), to: Date(timeIntervalSince1970: 1_735_776_000))
        #expect(throws: (any Error).self) { try database.store.salesFigures(in: day) }
    }

    @Test(
        "the period's payments and voided bills are found by their indexes, not by reading every row",
        .enabled(if: !TestDatabase.onPostgres, "about SQLite itself"))
    func indexes() async throws {
        let database = try await TestDatabase()
        let plan = { (sql: String) in
            try database.sqlite.onWriter("explaining") { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: ["2025-01-01T00:00:00.000Z", "2025-01-02T00:00:00.000Z"])
                    .map { $0["detail"] as String }
            }
        }
        let payments = try plan(SQLiteTransaction.paymentsByMethodSQL)
        #expect(payments.contains { $0.contains("USING INDEX payments_created_at (created_at>? AND created_at<?)") }, "\(payments)")
        let voided = try plan(SQLiteTransaction.voidedBillsSQL)
        #expect(voided.contains { $0.contains("USING INDEX bills_voided_at (voided_at>? AND voided_at<?)") }, "\(voided)")
    }

    /// Runs `sql` on the test's database, past the store (rows the application would never write).
    private static func execute(_ database: TestDatabase, _ sql: String) throws {
        if let url = database.url {
            _ = try TestPostgres.psql(url, sql)
        } else {
            try database.sqlite.onWriter("writing rows by hand") { try $0.execute(sql: sql) }
        }
    }
}
