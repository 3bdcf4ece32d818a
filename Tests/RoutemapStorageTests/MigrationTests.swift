import Foundation
import GRDB
import RoutemapDomain
@testable import RoutemapStorage
import Testing

@Suite("Migrations on a real SQLite file")
struct MigrationTests {
    @Test("a new database gets every migration, recorded; reopening applies nothing")
    func applyAndRecord() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        let first = try SQLiteStore(path: path, migrations: migrations)
        #expect(first.appliedMigrationIDs == ["0001_schema", "0002_demo_menu", "0003_devices_and_idempotency"])
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
            try SQLiteStore.migrate(path: path, migrations: migrations)
                == ["0001_schema", "0002_demo_menu", "0003_devices_and_idempotency"])
        let fourth = Migration(id: "0004_more_menu", sql: """
            INSERT INTO menu_items (id, name, category, price_minor, currency, available, position)
            VALUES ('hot-chocolate', 'Hot Chocolate', 'drinks', 400, 'USD', 1, 1000);
            """)
        #expect(try SQLiteStore.migrate(path: path, migrations: migrations + [fourth]) == ["0004_more_menu"])
        #expect(try SQLiteStore.migrate(path: path, migrations: migrations + [fourth]) == [])
        let store = try SQLiteStore(path: path, migrations: migrations + [fourth])
        #expect(try store.menuItems().last?.id == "hot-chocolate")
    }

    @Test("0003 applies to a database made by 0001 and 0002 with bills in it: they stay, owned by no device")
    func devicesMigrationOnExistingData() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        #expect(migrations.count == 3)
        let old = try SQLiteStore(path: path, migrations: Array(migrations.prefix(2)))
        #expect(old.appliedMigrationIDs == ["0001_schema", "0002_demo_menu"])
        let latte = try #require(try old.menuItems().first { $0.id == "latte" })
        let createdAt = Date(timeIntervalSince1970: 1_732_262_100.5)
        var open = try Bill(id: "bill_legacy_open", currency: .usd, taxRate: StorageFixtures.rate875, createdAt: createdAt)
        try open.add(latte, quantity: 2, newLineId: "line_legacy")
        var paid = try Bill(id: "bill_legacy_paid", currency: .usd, taxRate: StorageFixtures.rate875, createdAt: createdAt)
        try paid.add(latte, quantity: 1, newLineId: "line_legacy_paid")
        try paid.checkout()
        let payment = try paid.payment(for: PaymentRequest(method: .card, amountMinor: paid.totalMinor), id: "pay_legacy", createdAt: createdAt)
        try paid.markPaid()
        try old.write { transaction in
            try transaction.insert(open)
            try transaction.insert(paid)
            try transaction.insert(payment)
        }
        try old.close()

        let store = try SQLiteStore(path: path, migrations: migrations)
        #expect(store.appliedMigrationIDs == ["0003_devices_and_idempotency"])
        #expect(try store.bill(id: open.id) == open)
        #expect(try store.bill(id: paid.id) == paid)
        #expect(try store.bill(id: open.id)?.deviceId == nil)
        #expect(try store.payment(billId: paid.id) == payment)
        let schema = try store.onWriter("reading the schema") { database in
            try String.fetchAll(database, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name")
        }
        #expect(schema.contains("devices"))
        #expect(schema.contains("idempotency_keys"))
        #expect(schema.contains("bills_unpaid_newest_by_device"))
        #expect(!schema.contains("bills_unpaid_newest"))

        // No device owns the old bills: not found for an enrolled device, and not its current bill.
        let device = try DeviceDirectory(store: store).enroll(name: "Front counter").device.id
        let till = Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd)
        #expect(throws: POSError.billNotFound(open.id)) { try till.bill(id: open.id, device: device) }
        #expect(throws: POSError.billNotFound(open.id)) { try till.addItem(billId: open.id, device: device, menuItemId: "latte", quantity: 1) }
        let current = try till.currentBill(device: device)
        #expect(current.id != open.id)
        #expect(current.deviceId == device)
        #expect(try store.rowCount(in: "bills") == 3)
        #expect(try store.bill(id: open.id) == open)
    }

    @Test("a database with a migration this binary does not know is refused, naming it")
    func unknownMigration() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        let newer = Migration(id: "0004_from_the_future", sql: "CREATE TABLE future (id TEXT PRIMARY KEY);")
        _ = try SQLiteStore.migrate(path: path, migrations: migrations + [newer])

        let error = #expect(throws: StorageError.self) { try SQLiteStore(path: path, migrations: migrations) }
        guard case .unknownMigrations(let ids) = error else {
            Issue.record("expected unknownMigrations, got \(String(describing: error))")
            return
        }
        #expect(ids == ["0004_from_the_future"])
        #expect(error?.description.contains("0004_from_the_future") == true)
        // Nothing was applied: a pending migration is not run on a refused database either.
        let pendingToo = Migration(id: "0005_pending", sql: "CREATE TABLE pending (id TEXT PRIMARY KEY);")
        #expect(throws: StorageError.self) { try SQLiteStore(path: path, migrations: migrations + [pendingToo]) }
        #expect(try SQLiteStore.migrate(path: path, migrations: migrations + [newer, pendingToo]) == ["0005_pending"])
    }

    @Test("a failing migration is rolled back whole and not recorded")
    func failingMigration() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        let migrations = try StorageFixtures.migrations()
        let broken = Migration(id: "0004_broken", sql: "CREATE TABLE extra (id TEXT PRIMARY KEY); SELECT * FROM no_such_table;")
        let error = #expect(throws: StorageError.self) { try SQLiteStore(path: path, migrations: migrations + [broken]) }
        guard case .migrationFailed(let id, let underlying) = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(id == "0004_broken")
        let cause = String(describing: underlying)
        #expect(cause.contains("no_such_table"))
        // The earlier migrations stay; the broken one left no table behind, so its fix applies.
        let fixed = Migration(id: "0004_broken", sql: "CREATE TABLE extra (id TEXT PRIMARY KEY);")
        let store = try SQLiteStore(path: path, migrations: migrations + [fixed])
        #expect(store.appliedMigrationIDs == ["0004_broken"])
    }

    @Test("a migration list with a repeated id is refused")
    func duplicateIds() throws {
        let directory = try TemporaryDirectory()
        let twice = [Migration(id: "0001_a", sql: "SELECT 1;"), Migration(id: "0001_a", sql: "SELECT 2;")]
        #expect(throws: StorageError.self) { try SQLiteStore(path: directory.path("db.sqlite"), migrations: twice) }
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
}
