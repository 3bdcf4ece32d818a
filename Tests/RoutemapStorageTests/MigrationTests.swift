import Foundation
import GRDB
import RoutemapDomain
import RoutemapTestSupport
@testable import RoutemapStorage
import Testing

@Suite("Migrations on a real SQLite file", .enabled(if: !TestDatabase.onPostgres, "about SQLite itself"))
struct MigrationTests {
    /// Enrolls a device as a store from before migration 0010 (no role, no revocation) did.
    static func enrollBeforeRoles(_ store: SQLiteStore) throws -> String {
        let id = "dev_legacy\(UUID().uuidString.prefix(8))"
        try store.onWriter("enrolling a legacy device") { database in
            try database.execute(
                sql: "INSERT INTO devices (id, name, token_digest, created_at) VALUES (?, 'Front counter', randomblob(32), ?)",
                arguments: [id, "2025-11-22T07:55:00.000Z"])
        }
        return id
    }

    /// Every migration in the repository, in order.
    static let allIDs = [
        "0001_schema", "0002_demo_menu", "0003_devices_and_idempotency", "0004_bill_lines_by_bill", "0005_opaque_idempotent_answers",
        "0006_several_open_bills", "0010_device_roles", "0011_live_menu", "0012_device_revision", "0013_trivia_questions",
        "0014_trivia_games", "0015_pos_bill_references_collation", "0016_pos_current_bill_index",
        "0017_pos_sales_report_indexes", "0018_pos_refunds", "0019_pos_receipts", "0020_pos_tips",
        "0021_pos_discounts", "0022_pos_split_tender", "0023_pos_modifiers", "0024_pos_drawer_shifts",
        "0025_pos_line_notes", "0026_pos_bill_labels", "0027_pos_stock_counts",
    ]

    /// The ids from `first` on: what a database migrated up to the one before it gets next.
    static func ids(from first: String) -> [String] { Array(allIDs.drop { $0 != first }) }

    @Test("a new database gets every migration, recorded; reopening applies nothing")
    func applyAndRecord() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        let first = try SQLiteStore(path: path, migrations: migrations)
        #expect(first.appliedMigrationIDs == Self.allIDs)
        let menuCount = try first.menuItems().count
        #expect(menuCount >= 12)
        try first.close()

        let second = try SQLiteStore(path: path, migrations: migrations)
        #expect(second.appliedMigrationIDs == [])
        // Not applied twice: the menu would hold every item twice (or the inserts would fail).
        #expect(try second.menuItems().count == menuCount)
        try second.close()
    }

    @Test("a later migration is applied alone, after the earlier ones")
    func laterMigration() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        #expect(
            try SQLiteStore.migrate(path: path, migrations: migrations) == Self.allIDs)
        let sixth = Migration(id: "0006_more_menu", sql: """
            INSERT INTO menu_items (id, name, category, price_minor, currency, available, position)
            VALUES ('hot-chocolate', 'Hot Chocolate', 'drinks', 400, 'USD', 1, 1000);
            """)
        #expect(try SQLiteStore.migrate(path: path, migrations: migrations + [sixth]) == ["0006_more_menu"])
        #expect(try SQLiteStore.migrate(path: path, migrations: migrations + [sixth]) == [])
        let store = try SQLiteStore(path: path, migrations: migrations + [sixth])
        #expect(try store.menuItems().last?.id == "hot-chocolate")
    }

    @Test("0003 applies to a database made by 0001 and 0002 with bills in it: they stay, owned by no device")
    func devicesMigrationOnExistingData() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        #expect(migrations.count == Self.allIDs.count)
        let old = try SQLiteStore(path: path, migrations: Array(migrations.prefix(2)))
        #expect(old.appliedMigrationIDs == ["0001_schema", "0002_demo_menu"])
        let latte = try #require(try old.menuItems().first { $0.id == "latte" })
        let createdAt = Date(timeIntervalSince1970: 1_732_262_100.5)
        var open = try Bill(id: "bill_legacy_open", currency: .usd, taxRate: StorageFixtures.rate875, createdAt: createdAt)
        try open.add(latte, quantity: 2, newLineId: "line_legacy")
        var paid = try Bill(id: "bill_legacy_paid", currency: .usd, taxRate: StorageFixtures.rate875, createdAt: createdAt)
        try paid.add(latte, quantity: 1, newLineId: "line_legacy_paid")
        try paid.checkout()
        let payment = try paid.check(PaymentRequest(method: .card, amountMinor: paid.totalMinor))
            .payment(id: "pay_legacy", receiptNumber: 1, createdAt: createdAt, deviceId: nil)
        try paid.record(payment)
        try await Self.withTodaysColumns(old) {
            try await old.write { [open, paid] transaction in
                try transaction.insert(open)
                try transaction.insert(paid)
                try transaction.insert(payment)
            }
        }
        try old.close()

        let store = try SQLiteStore(path: path, migrations: migrations)
        #expect(
            store.appliedMigrationIDs == Self.ids(from: "0003_devices_and_idempotency"))
        #expect(try store.bill(id: open.id) == open)
        #expect(try store.bill(id: paid.id) == paid)
        #expect(try store.bill(id: open.id)?.deviceId == nil)
        #expect(try store.payment(id: payment.id) == payment)
        let schema = try store.onWriter("reading the schema") { database in
            try String.fetchAll(database, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name")
        }
        #expect(schema.contains("devices"))
        #expect(schema.contains("idempotency_keys"))
        #expect(schema.contains("bills_unsettled_by_device_selected_at"))
        #expect(!schema.contains("bills_unsettled_by_device"))
        #expect(!schema.contains("bills_unpaid_newest"))

        // No device owns the old bills: not found for an enrolled device, and not its current bill.
        let device = try await DeviceDirectory(store: store).enroll(name: "Front counter").device.id
        let till = Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd)
        #expect(throws: POSError.billNotFound(open.id)) { try till.bill(id: open.id, device: device) }
        await #expect(throws: POSError.billNotFound(open.id)) { try await till.addItem(billId: open.id, device: device, menuItemId: "latte", quantity: 1) }
        let current = try await till.currentBill(device: device)
        #expect(current.id != open.id)
        #expect(current.deviceId == device)
        #expect(try store.rowCount(in: "bills") == 3)
        #expect(try store.bill(id: open.id) == open)
    }

    @Test("0004 keeps every line of existing bills, in order, and they can still be edited")
    func linesByBillOnExistingData() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        let old = try SQLiteStore(path: path, migrations: Array(migrations.prefix(3)))
        let device = try Self.enrollBeforeRoles(old)
        let oldTill = Till(store: old, taxRate: StorageFixtures.rate875, currency: .usd)
        let (before, other, bill) = try await Self.withTodaysColumns(old) {
            let bill = try await oldTill.openBill(device: device)
            for item in ["latte", "croissant", "bagel", "espresso"] {
                _ = try await oldTill.addItem(billId: bill.id, device: device, menuItemId: item, quantity: 2)
            }
            let before = try await oldTill.removeLine(billId: bill.id, device: device, lineId: try #require(try old.bill(id: bill.id)?.lines[1].lineId))
            let other = try await oldTill.addItem(billId: try await oldTill.openBill(device: device).id, device: device, menuItemId: "latte", quantity: 1)
            return (before, other, bill)
        }
        try old.close()

        let store = try SQLiteStore(path: path, migrations: migrations)
        #expect(store.appliedMigrationIDs == Self.ids(from: "0004_bill_lines_by_bill"))
        #expect(try store.bill(id: bill.id) == before)
        #expect(try store.bill(id: other.id) == other)
        #expect(try store.rowCount(in: "bill_lines") == 4)
        let till = Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd)
        var edited = try await till.setQuantity(billId: bill.id, device: device, lineId: before.lines[2].lineId, quantity: 5)
        edited = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 1)
        #expect(edited.lines.map(\.menuItemId) == ["latte", "bagel", "espresso", "croissant"])
        #expect(edited.lines.map(\.quantity) == [2, 2, 5, 1])
        try store.close()
        #expect(try SQLiteStore(path: path, migrations: migrations).bill(id: bill.id) == edited)
    }

    @Test("0005 turns each recorded answer into bytes holding its status, Content-Type, Location if any, and the same body")
    func opaqueAnswersOnExistingData() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        let old = try SQLiteStore(path: path, migrations: Array(migrations.prefix(4)))
        #expect(old.appliedMigrationIDs.last == "0004_bill_lines_by_bill")
        let device = try Self.enrollBeforeRoles(old)
        struct OldRow {
            let key: String
            let status: Int
            let body: [UInt8]
            let location: String?
        }
        // JSON may hold CR LF between tokens: the body's own empty line must not end the head.
        let created = Array("{\"id\":\"bill_old\",\r\n\r\n\"status\":\"open\",\"note\":\"café\"}".utf8)
        let conflict = Array(#"{"type":"about:blank","title":"Bill is not checked out","status":409,"code":"bill_not_checked_out"}"#.utf8)
        let paid = Array(#"{"payment":{"id":"pay_old"}}"#.utf8)
        let rows = [
            OldRow(key: "open-1", status: 201, body: created, location: "/v1/bills/bill_old"),
            OldRow(key: "pay-1", status: 409, body: conflict, location: nil),
            OldRow(key: "pay-2", status: 200, body: paid, location: nil),
        ]
        let createdAt = "2026-11-23T21:00:00.123Z"
        try old.onWriter("recording answers as 0003 kept them") { database in
            for row in rows {
                try database.execute(
                    sql: """
                        INSERT INTO idempotency_keys (device_id, key, fingerprint, status, body, location, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [device, row.key, "fingerprint \(row.key)", row.status, Data(row.body), row.location, createdAt])
            }
        }
        try old.close()

        let store = try SQLiteStore(path: path, migrations: migrations)
        #expect(store.appliedMigrationIDs == Self.ids(from: "0005_opaque_idempotent_answers"))
        #expect(try store.rowCount(in: "idempotency_keys") == rows.count)
        let answers = try await store.write { transaction in
            try rows.map { try transaction.recordedAnswer(deviceId: device, key: $0.key) }
        }
        let expected: [(status: Int, headers: [String])] = [
            (201, ["Content-Type: application/json", "Location: /v1/bills/bill_old"]),
            (409, ["Content-Type: application/problem+json"]),
            (200, ["Content-Type: application/json"]),
        ]
        for (row, (answer, expected)) in zip(rows, zip(answers, expected)) {
            let recorded = try #require(answer, "\(row.key)")
            #expect(recorded.deviceId == device)
            #expect(recorded.fingerprint == "fingerprint \(row.key)")
            #expect(recorded.createdAt == Timestamp.parse(createdAt))
            let decoded = try #require(RecordedAnswerBytes(recorded.answer), "\(row.key): \(String(decoding: recorded.answer, as: UTF8.self))")
            #expect(decoded.status == expected.status, "\(row.key)")
            #expect(decoded.headerLines == expected.headers, "\(row.key)")
            #expect(decoded.body == row.body, "\(row.key)")
        }
        let schema = try store.onWriter("reading the schema") { database in
            (
                columns: try Row.fetchAll(database, sql: "PRAGMA table_info(idempotency_keys)").map { $0["name"] as String },
                indexes: try String.fetchAll(database, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'idempotency_keys'")
            )
        }
        #expect(schema.columns == ["device_id", "key", "fingerprint", "answer", "created_at"])
        #expect(schema.indexes.contains("idempotency_keys_created"))

        // A retry across the upgrade gets the converted answer, and nothing is done again.
        let till = Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd, now: { Timestamp.parse(createdAt)! + 60 })
        let retry = try await till.openBill(device: device, idempotency: Keys.bill("open-1", fingerprint: "fingerprint open-1"))
        #expect(retry.replayed == answers[0])
        #expect(try store.rowCount(in: "bills") == 0)
    }

    @Test("a database with a migration this binary does not know is refused, naming it")
    func unknownMigration() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        let newer = Migration(id: "0006_from_the_future", sql: "CREATE TABLE future (id TEXT PRIMARY KEY);")
        _ = try SQLiteStore.migrate(path: path, migrations: migrations + [newer])

        let error = #expect(throws: StorageError.self) { try SQLiteStore(path: path, migrations: migrations) }
        guard case .unknownMigrations(let ids) = error else {
            Issue.record("expected unknownMigrations, got \(String(describing: error))")
            return
        }
        #expect(ids == ["0006_from_the_future"])
        #expect(error?.description.contains("0006_from_the_future") == true)
        // Nothing was applied: a pending migration is not run on a refused database either.
        let pendingToo = Migration(id: "0007_pending", sql: "CREATE TABLE pending (id TEXT PRIMARY KEY);")
        #expect(throws: StorageError.self) { try SQLiteStore(path: path, migrations: migrations + [pendingToo]) }
        #expect(try SQLiteStore.migrate(path: path, migrations: migrations + [newer, pendingToo]) == ["0007_pending"])
    }

    @Test("a failing migration is rolled back whole and not recorded")
    func failingMigration() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        let broken = Migration(id: "0006_broken", sql: "CREATE TABLE extra (id TEXT PRIMARY KEY); SELECT * FROM no_such_table;")
        let error = #expect(throws: StorageError.self) { try SQLiteStore(path: path, migrations: migrations + [broken]) }
        guard case .migrationFailed(let id, let underlying) = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(id == "0006_broken")
        let cause = String(describing: underlying)
        #expect(cause.contains("no_such_table"))
        // The earlier migrations stay; the broken one left no table behind, so its fix applies.
        let fixed = Migration(id: "0006_broken", sql: "CREATE TABLE extra (id TEXT PRIMARY KEY);")
        let store = try SQLiteStore(path: path, migrations: migrations + [fixed])
        #expect(store.appliedMigrationIDs == ["0006_broken"])
    }

    @Test("a migration list with a repeated id is refused")
    func duplicateIds() throws {
        let directory = try TemporaryDirectory()
        let twice = [Migration(id: "0001_a", sql: "SELECT 1;"), Migration(id: "0001_a", sql: "SELECT 2;")]
        #expect(throws: StorageError.self) { try SQLiteStore(path: directory.path("db.sqlite"), migrations: twice) }
    }

    @Test(
        "a migration that begins or ends a transaction itself is refused by name before anything is applied, also by the dry run",
        arguments: [
            "CREATE TABLE half (id TEXT PRIMARY KEY); COMMIT; CREATE TABLE other (id TEXT PRIMARY KEY);",
            "begin transaction; CREATE TABLE half (id TEXT PRIMARY KEY);",
            "CREATE TABLE half (id TEXT PRIMARY KEY);\n/* done */ -- so end it\nEND;",
            "CREATE TABLE half (id TEXT PRIMARY KEY); ROLLBACK;",
        ])
    func transactionStatementRefused(script: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        let fine = Migration(id: "0090_fine", sql: "CREATE TABLE fine (id TEXT PRIMARY KEY);")
        let broken = Migration(id: "0091_own_transaction", sql: script)

        let error = #expect(throws: StorageError.self) { try SQLiteStore(path: path, migrations: migrations + [fine, broken]) }
        guard case .transactionInMigration(let id, let statement) = error else {
            Issue.record("expected transactionInMigration, got \(String(describing: error))")
            return
        }
        #expect(id == broken.id)
        #expect(["BEGIN", "COMMIT", "END", "ROLLBACK"].contains { statement.uppercased().contains($0) }, "\(statement)")
        #expect(error?.description.contains(broken.id) == true)
        // Nothing was applied, not even the migrations before it.
        #expect(try SQLiteStore.pendingMigrations(path: path, migrations: migrations) == migrations.map(\.id))
        #expect(throws: StorageError.self) { try SQLiteStore.pendingMigrations(path: path, migrations: migrations + [fine, broken]) }
    }

    @Test("BEGIN and END of a trigger, transaction words in strings and comments, and savepoints are not transaction statements")
    func transactionWordsElsewhereAccepted() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        let script = """
            CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL); -- COMMIT; in a comment
            /* BEGIN; in a block comment */
            CREATE TRIGGER notes_stamp AFTER INSERT ON notes BEGIN
                UPDATE notes SET body = body || '; COMMIT;' WHERE id = NEW.id;
            END;
            SAVEPOINT seed;
            INSERT INTO notes (id, body) VALUES ('a', 'begin; end');
            ROLLBACK TO seed;
            INSERT INTO notes (id, body) VALUES ('b', 'kept');
            RELEASE seed
            """
        #expect(SQLiteStore.statements(in: script).count == 7)
        let store = try SQLiteStore(path: path, migrations: migrations + [Migration(id: "0090_notes", sql: script)])
        #expect(store.appliedMigrationIDs.contains("0090_notes"))
        try store.close()
        let notes = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT id || '=' || body FROM notes ORDER BY id") }
        #expect(notes == ["b=kept; COMMIT;"])
    }

    @Test("a database that cannot be opened says so")
    func cannotOpen() throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: StorageError.self) {
            try SQLiteStore(path: directory.path("missing/dir/db.sqlite"), migrations: try StorageFixtures.migrations())
        }
        guard case .cannotOpen(let path, _) = error else {
            Issue.record("expected cannotOpen, got \(String(describing: error))")
            return
        }
        #expect(path.hasSuffix("missing/dir/db.sqlite"))
    }

    @Test("0006 keeps bills from before, each selected when it was created, and the same current bill; they can be voided")
    func severalOpenBillsOnExistingData() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        // A database made by every other migration up to 0015 (as one from before 0006 that
        // already has 0010 and 0011): 0006 applies after them, then 0016, which replaces
        // 0006's index, then 0017 to 0021.
        let old = try SQLiteStore(path: path, migrations: migrations.filter { $0.id != "0006_several_open_bills" && $0.id < "0016" })
        let device = try await DeviceDirectory(store: old).enroll(name: "Front counter").device.id
        let clock = TestClock()
        let oldTill = Till(store: old, taxRate: StorageFixtures.rate875, currency: .usd, now: clock.function)
        let (first, second, paid) = try await Self.withTodaysColumns(old) {
            let first = try await oldTill.addItem(billId: try await oldTill.openBill(device: device).id, device: device, menuItemId: "latte", quantity: 1)
            clock.advance(by: 1)
            let paying = try await oldTill.addItem(billId: try await oldTill.openBill(device: device).id, device: device, menuItemId: "bagel", quantity: 1)
            _ = try await oldTill.checkout(billId: paying.id, device: device)
            let paid = try await oldTill.pay(billId: paying.id, device: device, PaymentRequest(method: .card, amountMinor: paying.totalMinor))
            clock.advance(by: 1)
            let second = try await oldTill.addItem(billId: try await oldTill.openBill(device: device).id, device: device, menuItemId: "croissant", quantity: 1)
            return (first, second, paid)
        }
        try old.close()

        let store = try SQLiteStore(path: path, migrations: migrations)
        #expect(store.appliedMigrationIDs == ["0006_several_open_bills", "0016_pos_current_bill_index", "0017_pos_sales_report_indexes", "0018_pos_refunds", "0019_pos_receipts", "0020_pos_tips", "0021_pos_discounts", "0022_pos_split_tender", "0023_pos_modifiers", "0024_pos_drawer_shifts", "0025_pos_line_notes", "0026_pos_bill_labels", "0027_pos_stock_counts"])
        // 0024 gives the payment from before it no device; today's code recorded one, put back by hand.
        #expect(try store.payment(id: paid.payment.id)?.deviceId == nil)
        try store.onWriter("recording the payment's device") { try $0.execute(sql: "UPDATE payments SET device_id = ?", arguments: [device]) }
        #expect(try store.bill(id: first.id) == first)
        #expect(try store.bill(id: first.id)?.selectedAt == first.createdAt)
        #expect(try store.bill(id: paid.bill.id) == paid.bill)
        #expect(try store.payment(id: paid.payment.id) == paid.payment)
        #expect(try store.currentBill(deviceId: device)?.id == second.id)
        let till = Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd, now: clock.function)
        #expect(try till.bills(device: device, statuses: [.open, .checkedOut], after: nil, limit: 10).bills.map(\.id) == [second.id, paid.nextBill.id, first.id])
        clock.advance(by: 1)
        let voided = try #require(try await till.void(billId: second.id, device: device, reason: "mistake", idempotency: nil).performedValue)
        #expect(voided.nextBill.id == paid.nextBill.id)
        try store.close()
        let reopened = try SQLiteStore(path: path, migrations: migrations)
        #expect(try reopened.bill(id: second.id)?.voiding == BillVoiding(reason: "mistake", voidedAt: clock.now))
        #expect(try reopened.bill(id: second.id)?.lines == second.lines)
    }

    /// Runs `body`, which writes bills and payments through today's code, on a database at a
    /// schema from before 0006: the columns 0006 and 0021 add to bills and 0019, 0020 and 0024 to payments exist only
    /// while `body` runs (not as a migration), so the file keeps exactly its older schema.
    private static func withTodaysColumns<T>(_ store: SQLiteStore, _ body: () async throws -> T) async throws -> T {
        let columns = [
            (table: "bills", name: "selected_at", type: "TEXT"), ("bills", "void_reason", "TEXT"), ("bills", "voided_at", "TEXT"),
            ("payments", "receipt_number", "INTEGER"), ("payments", "tip_minor", "INTEGER"),
            ("bills", "discount_percent_bps", "INTEGER"), ("bills", "discount_amount_minor", "INTEGER"), ("bills", "discount_reason", "TEXT"),
            ("bills", "discount_minor", "INTEGER NOT NULL DEFAULT 0"), ("bills", "paid_minor", "INTEGER NOT NULL DEFAULT 0"),
            ("payments", "device_id", "TEXT"),
        ]
        try store.onWriter("adding today's columns") { database in
            for (table, name, type) in columns { try database.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(name) \(type)") }
        }
        let result = try await body()
        try store.onWriter("dropping today's columns") { database in
            for (table, name, _) in columns { try database.execute(sql: "ALTER TABLE \(table) DROP COLUMN \(name)") }
        }
        return result
    }

}

@Suite("Migration 0010: device roles", .enabled(if: !TestDatabase.onPostgres, "about SQLite itself"))
struct DeviceRolesMigrationTests {
    @Test("devices enrolled before roles are active tills; the schema refuses an unknown role")
    func existingDevicesAreTills() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        let old = try SQLiteStore(path: path, migrations: Array(migrations.prefix(5)))
        let id = try MigrationTests.enrollBeforeRoles(old)
        try old.close()
        let store = try SQLiteStore(path: path, migrations: migrations)
        #expect(store.appliedMigrationIDs == MigrationTests.ids(from: "0006_several_open_bills"))
        let device = try #require(try store.devices().first)
        #expect(device.id == id && device.role == .till && device.revokedAt == nil)
        #expect(throws: (any Error).self) {
            try store.onWriter("an unknown role") { try $0.execute(sql: "UPDATE devices SET role = 'owner'") }
        }
        let revoked = try await DeviceDirectory(store: store).revoke(id: id)
        #expect(try store.devices().first == revoked)
        #expect(revoked.revokedAt != nil)
    }
}
