import Foundation
import RoutemapDomain
import RoutemapPostgres
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// Tips on a real database (SQLite, or PostgreSQL when `ROUTEMAP_TEST_DATABASE_URL` is set):
/// stored with their payment, checked by the schema, and given to the payments a database held
/// before migration 0020, or that a node still on the old binary writes.
@Suite("Tips on a real database")
struct TipStorageTests {
    /// A checked-out bill of `device` holding two lattes (1033).
    private func checkedOut(_ till: Till, _ device: String) async throws -> Bill {
        try await ReceiptStorageTests().checkedOut(till, device)
    }

    /// `sql` run as it is, outside the stores' code.
    private static func execute(_ store: any TestStore, url: String?, _ sql: String) throws {
        if let url {
            _ = try TestPostgres.psql(url, sql)
        } else {
            try (store as? SQLiteStore)?.onWriter("writing rows by hand") { try $0.execute(sql: sql) }
        }
    }

    /// A paid bill `id`'s row, for payments written by hand.
    private static func paidBill(_ id: String) -> String {
        """
        INSERT INTO bills (id, status, currency, tax_rate_bps, subtotal_minor, tax_minor, total_minor, version, created_at,
                           updated_at, device_id, selected_at)
        VALUES ('\(id)', 'paid', 'USD', 0, 100, 0, 100, 1, '2025-01-01T09:00:00.000Z', '2025-01-01T09:00:00.000Z', NULL,
                '2025-01-01T09:00:00.000Z');
        """
    }

    @Test("a tipped payment is stored and read back whole (by id, by bill, by a new store instance, on the receipt)")
    func stored() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let cash = try await till.pay(
            billId: try await checkedOut(till, database.device).id, device: database.device,
            try PaymentRequest(method: .cash, amountMinor: 1033, tenderedMinor: 2_000, tipMinor: 150)).payment
        let card = try await till.pay(
            billId: try await checkedOut(till, database.device).id, device: database.device,
            try PaymentRequest(method: .card, amountMinor: 1033, tipMinor: 99)).payment
        #expect(cash.tipMinor == 150 && cash.changeMinor == 2_000 - 1033 - 150 && cash.chargedMinor == 1183)
        #expect(card.tipMinor == 99 && card.tenderedMinor == 1132)
        for store in [database.store, try database.reopen()] {
            for payment in [cash, card] {
                #expect(try store.payment(id: payment.id) == payment)
                #expect(try store.bill(id: payment.billId)?.completingPayment == payment)
            }
            let receipt = try Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd).receipt(billId: cash.billId, caller: .till(database.device))
            #expect(receipt.payment.tipMinor == 150 && receipt.payment.chargedMinor == 1183)
        }
    }

    @Test("the schema holds change = tendered − amount − tip, a tender that covers both, a tip of at least 0 (each with its positive control)")
    func constraints() async throws {
        let database = try await TestDatabase()
        let insert = { (id: Int, tip: Int64, tendered: Int64, change: Int64) in
            try Self.execute(
                database.store, url: database.url,
                Self.paidBill("bill_\(id)") + """
                    INSERT INTO payments (id, bill_id, receipt_number, method, amount_minor, tip_minor, tendered_minor, change_minor, created_at)
                    VALUES ('pay_\(id)', 'bill_\(id)', \(id), 'cash', 100, \(tip), \(tendered), \(change), '2025-01-01T10:00:00.000Z');
                    """)
        }
        // The change left the tip in.
        #expect(throws: (any Error).self) { try insert(1, 20, 200, 100) }
        // The tender covers the amount, not the tip.
        #expect(throws: (any Error).self) { try insert(2, 20, 110, -10) }
        #expect(throws: (any Error).self) { try insert(3, -1, 100, 1) }
        try insert(4, 20, 200, 80)
        #expect(try database.store.payment(id: "pay_4")?.tipMinor == 20)
        #expect(try database.store.rowCount(in: "payments") == 1)
    }

    @Test("an amount and tip past 64 bits cannot be stored (PostgreSQL's bigint sum fails; SQLite's overflows to a REAL above every tender); a payment made up so saturates its charge")
    func overflowingRow() async throws {
        let database = try await TestDatabase()
        let insert = Self.paidBill("bill_big") + """
            INSERT INTO payments (id, bill_id, receipt_number, method, amount_minor, tip_minor, tendered_minor, change_minor, created_at)
            VALUES ('pay_big', 'bill_big', 1, 'cash', \(Int64.max), 1, \(Int64.max), -1, '2025-01-01T10:00:00.000Z');
            """
        #expect(throws: (any Error).self) { try Self.execute(database.store, url: database.url, insert) }
        #expect(try database.store.rowCount(in: "payments") == 0)
        // A payment made up outside the rules saturates rather than traps.
        let madeUp = Payment(
            id: "pay_x", billId: "bill_x", receiptNumber: 1, method: .cash, amountMinor: .max, tipMinor: 1, tenderedMinor: .max, changeMinor: 0,
            createdAt: Date())
        #expect(madeUp.chargedMinor == .max)
    }

    @Test("migration 0020 gives the payments a database held no tip; a payment written as the binary before it does (no tip, and on PostgreSQL no number) gets tip 0 and, on PostgreSQL, the next number")
    func migration() async throws {
        // A database at 0019 with a cash payment with change (numbered 1: on PostgreSQL by the
        // counter, as 0019's trigger numbers an insert without one).
        let rows = Self.paidBill("bill_1") + """
            INSERT INTO payments (id, bill_id, \(TestDatabase.onPostgres ? "" : "receipt_number, ")method, amount_minor, tendered_minor, change_minor, created_at)
            VALUES ('pay_1', 'bill_1', \(TestDatabase.onPostgres ? "" : "1, ")'cash', 100, 150, 50, '2025-01-01T10:00:00.000Z');
            """
        let older = try await OlderDatabase(before: "0020_pos_tips", rows: rows)
        defer { older.close() }
        let store = older.store
        let kept = try #require(try store.payment(id: "pay_1"))
        #expect(kept.tipMinor == 0 && kept.tenderedMinor == 150 && kept.changeMinor == 50 && kept.receiptNumber == 1)

        // Today's binary pays with a tip on the migrated schema.
        let device = try await DeviceDirectory(store: store).enroll(name: "Front counter").device.id
        let till = Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd)
        let tipped = try await till.pay(
            billId: try await checkedOut(till, device).id, device: device, try PaymentRequest(method: .cash, amountMinor: 1033, tenderedMinor: 1_200, tipMinor: 100))
        #expect(tipped.payment.receiptNumber == 2 && tipped.payment.changeMinor == 67)
        #expect(try store.payment(id: tipped.payment.id) == tipped.payment)

        // The insert of the binary from before 0020: no tip_minor. On PostgreSQL (nodes replaced
        // one by one after `migrate`), that binary also leaves out the receipt number, which
        // 0019's trigger still gives.
        let columns = older.url == nil ? "id, bill_id, receipt_number" : "id, bill_id"
        let values = older.url == nil ? "'pay_old_node', 'bill_2', 3" : "'pay_old_node', 'bill_2'"
        try Self.execute(
            store, url: older.url,
            Self.paidBill("bill_2") + """
                INSERT INTO payments (\(columns), method, amount_minor, tendered_minor, change_minor, created_at)
                VALUES (\(values), 'cash', 100, 120, 20, '2025-01-01T10:00:00.000Z');
                """)
        let old = try #require(try store.payment(id: "pay_old_node"))
        #expect(old.tipMinor == 0 && old.changeMinor == 20 && old.receiptNumber == 3)
        let next = try await till.pay(billId: try await checkedOut(till, device).id, device: device, PaymentRequest(method: .card, amountMinor: 1033))
        #expect(next.payment.receiptNumber == 4 && next.payment.tipMinor == 0)
        #expect(try store.rowCount(in: "payments") == 4)
    }
}
