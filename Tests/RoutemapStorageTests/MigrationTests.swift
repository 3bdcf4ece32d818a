import Foundation
import RoutemapDomain
import RoutemapStorage
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
