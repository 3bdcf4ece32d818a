import Foundation
@testable import RoutemapPostgres
import RoutemapTestSupport
import Testing

/// What the PostgreSQL schema's indexes answer, with the planner's statistics of a shop that has
/// run a while (thousands of bills and lines): a read of one bill must not scan every bill's
/// lines, and finding a device's current bill must not sort its unsettled bills.
@Suite("PostgreSQL schema", .enabled(if: TestDatabase.onPostgres, "about the PostgreSQL schema"))
struct PostgresSchemaTests {
    /// SQL that inserts `count` empty bills `<prefix>1`, `<prefix>2`... with `status`, owned by
    /// `device` (an SQL expression, which may use the row number `g`), each selected a second
    /// before the one before it.
    private static func insertBills(_ prefix: String, count: Int, status: String, device: String) -> String {
        """
        INSERT INTO bills (id, status, currency, tax_rate_bps, subtotal_minor, tax_minor, total_minor, version, created_at,
                           updated_at, device_id, selected_at)
        SELECT '\(prefix)' || g, '\(status)', 'USD', 875, 0, 0, 0, 1, now(), now(), \(device), now() - g * interval '1 second'
        FROM generate_series(1, \(count)) g;

        """
    }

    @Test("a bill's lines and payment are found by index when joined with the bill, as the store's reads join them")
    func joinsUseIndexes() async throws {
        let database = try await TestDatabase()
        let url = try #require(database.url)
        try TestPostgres.psql(
            url,
            Self.insertBills("bill_", count: 3000, status: "open", device: "'\(database.device)'") + """
            INSERT INTO bill_lines (bill_id, position, line_id, menu_item_id, name, quantity, unit_price_minor)
            SELECT 'bill_' || g, p, 'line_' || g || '_' || p, 'latte', 'Latte', 1, 0
            FROM generate_series(1, 3000) g, generate_series(0, 2) p;
            INSERT INTO payments (id, bill_id, receipt_number, method, amount_minor, tendered_minor, change_minor, created_at)
            SELECT 'pay_' || g, 'bill_' || g, g, 'card', 0, 0, 0, now() FROM generate_series(1, 3000) g;
            ANALYZE bills; ANALYZE bill_lines; ANALYZE payments;
            """)
        let plan = try TestPostgres.psql(
            url,
            """
            EXPLAIN SELECT b.id, l.line_id, p.id FROM bills b
            LEFT JOIN bill_lines l ON l.bill_id = b.id LEFT JOIN payments p ON p.bill_id = b.id
            WHERE b.id = 'bill_17' ORDER BY l.position
            """)
        #expect(plan.contains("bill_lines_pkey"), "\(plan)")
        // Migration 0022 replaced the UNIQUE constraint's index (payments_bill_id_key) with payments_bill_id.
        #expect(plan.contains("using payments_bill_id on payments"), "\(plan)")
        #expect(!plan.contains("Seq Scan"), "\(plan)")
    }

    @Test("a device's current bill is the first entry of the index of unsettled bills, found without sorting them")
    func currentBillUsesIndexInOrder() async throws {
        let database = try await TestDatabase()
        let url = try #require(database.url)
        // 3000 settled bills across 30 devices, and 3 unsettled ones on the test's device.
        try TestPostgres.psql(
            url,
            Self.insertBills("bill_", count: 3000, status: "paid", device: "'dev_' || (g % 30)")
                + Self.insertBills("bill_open_", count: 3, status: "open", device: "'\(database.device)'")
                + "ANALYZE bills; ANALYZE bill_lines;")
        let plan = try TestPostgres.psql(
            url,
            """
            PREPARE current_bill(text) AS \(PostgresTransaction.currentBillSQL);
            EXPLAIN EXECUTE current_bill('\(database.device)');
            """)
        #expect(plan.contains("Index Scan using bills_unsettled_by_device_selected_at on bills"), "\(plan)")
        // The only sort is of the chosen bill's lines (with their modifiers, 0023), by position.
        let sortKeys = plan.split(separator: "\n").filter { $0.contains("Sort Key:") }.map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(sortKeys == [#"Sort Key: l."position", m."position""#], "\(plan)")
    }
}
