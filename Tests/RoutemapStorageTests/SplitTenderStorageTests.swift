import Foundation
import GRDB
import RoutemapDomain
import RoutemapPostgres
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// Split tender on a real database (SQLite, or PostgreSQL when `ROUTEMAP_TEST_DATABASE_URL` is
/// set): a bill's several payments are stored and read back with it, and the store itself
/// (migration 0022) never lets them sum beyond its total nor a partly paid bill be reopened or
/// voided, whoever writes (a node still on the binary from before 0022 during a rolling upgrade).
@Suite("Split tender on a real database")
struct SplitTenderStorageTests {
    /// A checked-out bill of `device` holding two lattes (1033).
    private func checkedOut(_ till: Till, _ device: String) async throws -> Bill {
        try await ReceiptStorageTests().checkedOut(till, device)
    }

    private static func part(_ till: Till, _ bill: Bill, _ device: String, _ amount: Int64, method: PaymentMethod = .card) async throws
        -> PaymentOutcome
    {
        try await till.pay(billId: bill.id, device: device, try PaymentRequest(method: method, amountMinor: amount, tipMinor: 0, partial: true))
    }

    /// `sql` run as it is, outside the stores' code (as another binary would).
    private static func execute(_ database: TestDatabase, _ sql: String) throws {
        if let url = database.url {
            _ = try TestPostgres.psql(url, sql)
        } else {
            try database.sqlite.onWriter("writing rows by hand") { try $0.execute(sql: sql) }
        }
    }

    @Test("a bill's payments are stored with it, oldest first, and read back by this store and another; the last one pays it")
    func stored() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let bill = try await checkedOut(till, database.device)
        let first = try await Self.part(till, bill, database.device, 400, method: .cash)
        #expect(first.bill.status == .checkedOut && first.bill.paidMinor == 400 && first.bill.dueMinor == 633)
        #expect(first.nextBill == first.bill)
        #expect(try database.store.bill(id: bill.id) == first.bill)
        #expect(try database.reopen().bill(id: bill.id) == first.bill)
        #expect(try database.reopen().currentBill(deviceId: database.device) == first.bill)
        // Still to be taken: what is due (633), not the total (1033), of which 400 is in the takings.
        let now = try SalesPeriod(from: Date(timeIntervalSinceNow: -3600), to: Date(timeIntervalSinceNow: 3600))
        let partly = try database.store.salesFigures(in: now).unsettled
        #expect(partly.checkedOut == 1 && partly.checkedOutTotalMinor == 633, "\(partly)")
        let second = try await Self.part(till, first.bill, database.device, 333)
        let last = try await till.pay(billId: bill.id, device: database.device, PaymentRequest(method: .card, amountMinor: 300))
        #expect(last.bill.status == .paid && last.bill.payments == [first.payment, second.payment, last.payment])
        #expect(last.nextBill.id != bill.id)
        #expect(try database.store.bill(id: bill.id) == last.bill)
        let other = try database.reopen()
        #expect(try other.bill(id: bill.id) == last.bill)
        #expect(try other.bill(id: bill.id)?.completingPayment == last.payment)
        #expect(try database.store.rowCount(in: "payments") == 3)
        #expect([first, second, last].map(\.payment.receiptNumber) == [1, 2, 3])
        // The sales report: three payments in the takings, one bill sold.
        let figures = try other.salesFigures(in: SalesPeriod(from: Date(timeIntervalSinceNow: -3600), to: Date(timeIntervalSinceNow: 3600)))
        #expect(figures.sales.bills == 1 && figures.sales.totalMinor == 1033)
        #expect(figures[payments: .card].count == 2 && figures[payments: .card].amountMinor == 633)
        #expect(figures[payments: .cash].count == 1 && figures[payments: .cash].amountMinor == 400)
        #expect(figures.sales.items.map(\.quantity) == [2])
    }

    @Test("a payment beyond what is due is refused by the store, whoever inserts it, and nothing changes (with its positive control)")
    func storeRefusesOverpaying() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let bill = try await checkedOut(till, database.device)
        let partly = try await Self.part(till, bill, database.device, 500).bill
        // The binary from before 0022 checks the amount against the total: it pays 1033 again.
        let number = database.url == nil ? "receipt_number, " : ""
        let oldPay = { (amount: Int64, id: String) in
            """
            INSERT INTO payments (id, bill_id, \(number)method, amount_minor, tendered_minor, change_minor, created_at)
            VALUES ('\(id)', '\(bill.id)', \(database.url == nil ? "99, " : "")'card', \(amount), \(amount), 0, '2025-01-01T10:00:00.000Z');
            """
        }
        #expect(throws: (any Error).self) { try Self.execute(database, oldPay(1033, "pay_old_node")) }
        #expect(throws: (any Error).self) { try Self.execute(database, oldPay(534, "pay_one_too_many")) }
        #expect(try database.store.rowCount(in: "payments") == 1)
        #expect(try database.reopen().bill(id: bill.id) == partly)
        // Positive control: exactly what is due passes the store's check.
        try Self.execute(database, oldPay(533, "pay_rest"))
        #expect(try database.store.rowCount(in: "payments") == 2)
    }

    @Test("a partly paid bill cannot be reopened or voided by an old binary's update (with its positive control)")
    func storeRefusesReopeningPartlyPaid() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let bill = try await checkedOut(till, database.device)
        let partly = try await Self.part(till, bill, database.device, 500).bill
        let now = database.url == nil ? "'2025-01-01T10:00:00.000Z'" : "now()"
        let reopen = { (id: String) in "UPDATE bills SET status = 'open', version = version + 1, updated_at = \(now) WHERE id = '\(id)';" }
        let void = { (id: String) in
            "UPDATE bills SET status = 'voided', void_reason = 'gone', voided_at = \(now), version = version + 1 WHERE id = '\(id)';"
        }
        #expect(throws: (any Error).self) { try Self.execute(database, reopen(bill.id)) }
        #expect(throws: (any Error).self) { try Self.execute(database, void(bill.id)) }
        #expect(try database.reopen().bill(id: bill.id) == partly)
        // Positive control: a checked-out bill without a payment is reopened and voided so.
        let plain = try await checkedOut(till, database.device)
        try Self.execute(database, reopen(plain.id))
        try Self.execute(database, void(plain.id))
        #expect(try database.reopen().bill(id: plain.id)?.status == .voided)
    }

    @Test("migration 0022 keeps every payment and refund as it was, the payments' indexes, and then takes a bill's second payment")
    func migration() async throws {
        // A database at 0021 with a paid bill, its tipped cash payment and a refund of it.
        let number = TestDatabase.onPostgres ? "" : "receipt_number, "
        var rowid: Int64?
        let older = try await OlderDatabase(before: "0022_pos_split_tender") { old in
            let device = try await DeviceDirectory(store: old).enroll(name: "Manager").device.id
            return """
                INSERT INTO bills (id, status, currency, tax_rate_bps, subtotal_minor, tax_minor, total_minor, version, created_at,
                                   updated_at, device_id, selected_at)
                VALUES ('bill_1', 'paid', 'USD', 0, 100, 0, 100, 3, '2025-01-01T09:00:00.000Z', '2025-01-01T09:00:00.000Z', NULL,
                        '2025-01-01T09:00:00.000Z');
                INSERT INTO bill_lines (bill_id, position, line_id, menu_item_id, name, quantity, unit_price_minor)
                VALUES ('bill_1', 0, 'line_1', 'latte', 'Latte', 1, 100);
                INSERT INTO payments (id, bill_id, \(number)method, amount_minor, tip_minor, tendered_minor, change_minor, created_at)
                VALUES ('pay_1', 'bill_1', \(number.isEmpty ? "" : "1, ")'cash', 100, 10, 150, 40, '2025-01-01T10:00:00.000Z');
                INSERT INTO refunds (id, bill_id, payment_id, amount_minor, reason, device_id, created_at)
                VALUES ('ref_1', 'bill_1', 'pay_1', 30, 'Cold', '\(device)', '2025-01-01T11:00:00.000Z');
                """
        } olderSQLite: { old in
            rowid = try old.onWriter("reading a rowid") { try Int64.fetchOne($0, sql: "SELECT rowid FROM payments WHERE id = 'pay_1'") }
        }
        defer { older.close() }
        let store = older.store
        if let migrated = store as? SQLiteStore {
            // 0022 rebuilt the payments table: its rows keep their rowids, and it keeps its indexes.
            #expect(rowid != nil)
            #expect(try migrated.onWriter("reading a rowid") { try Int64.fetchOne($0, sql: "SELECT rowid FROM payments WHERE id = 'pay_1'") } == rowid)
            let indexes = try migrated.onWriter("reading the indexes") { database in
                try String.fetchAll(database, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'payments' AND sql IS NOT NULL ORDER BY name")
            }
            #expect(indexes == ["payments_bill_id", "payments_created_at", "payments_receipt_number"])
        }
        let kept = try #require(try store.payment(id: "pay_1"))
        #expect(kept.amountMinor == 100 && kept.tipMinor == 10 && kept.tenderedMinor == 150 && kept.changeMinor == 40 && kept.receiptNumber == 1)
        // The bill reads as paid with its one payment (paid_minor 0: it was paid before 0022).
        let bill = try #require(try store.bill(id: "bill_1"))
        #expect(bill.status == .paid && bill.payments == [kept] && bill.paidMinor == 100 && bill.dueMinor == 0)
        #expect(try store.refunds(billId: "bill_1").map(\.paymentId) == ["pay_1"])

        // Today's binary splits a bill on the migrated schema.
        let device = try await DeviceDirectory(store: store).enroll(name: "Front counter").device.id
        let till = Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd)
        let split = try await checkedOut(till, device)
        let first = try await Self.part(till, split, device, 33)
        let rest = try await till.pay(billId: split.id, device: device, PaymentRequest(method: .cash, amountMinor: 1000))
        #expect(rest.bill.payments == [first.payment, rest.payment] && rest.payment.receiptNumber == 3)
        #expect(try store.rowCount(in: "payments") == 3)
    }

    @Test("two partial payments at once through two stores (two nodes) never pay beyond the total")
    func racingParts() async throws {
        let database = try await TestDatabase()
        let tills = [database.till(), Till(store: try database.reopen(), taxRate: StorageFixtures.rate875, currency: .usd)]
        let bill = try await checkedOut(tills[0], database.device)
        // 700 twice on a 1033 bill: one is paid, the other finds 333 due.
        let device = database.device
        let results = await withTaskGroup(of: Result<PaymentOutcome, any Error>.self) { group in
            for till in tills {
                group.addTask { await Result.of { try await Self.part(till, bill, device, 700) } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let paid = results.compactMap { try? $0.get() }
        #expect(paid.count == 1)
        #expect(results.contains { if case .failure(POSError.amountExceedsDue(dueMinor: 333, receivedMinor: 700)) = $0 { true } else { false } })
        #expect(try database.reopen().bill(id: bill.id)?.paidMinor == 700)
    }
}

extension Result where Failure == any Error {
    /// What `body` returned or threw.
    fileprivate static func of(_ body: () async throws -> Success) async -> Self {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}
