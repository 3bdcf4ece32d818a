import Foundation
import Logging
import RoutemapDomain
@testable import RoutemapPostgres
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// What `MigrationTests` checks on SQLite, on a real PostgreSQL server: each test on an empty
/// database of its own, dropped when it ends. The migrations added here are numbered 9xxx, after
/// any shipped one, and never leave the test's database.
@Suite("Migrations on PostgreSQL", .enabled(if: TestDatabase.onPostgres, "about PostgreSQL's migrator"))
struct PostgresMigrationTests {
    /// A new empty database on the test server: its URL, as text and parsed. The caller drops it.
    private func newDatabase() throws -> (String, DatabaseURL) {
        let url = try TestPostgres.newDatabase()
        guard let database = DatabaseURL(url) else {
            TestPostgres.dropDatabase(url)
            throw TestPostgresError.notConfigured
        }
        return (url, database)
    }

    /// The migrations recorded in `routemap_migrations`, with when each was applied, by id
    /// (`[]` when the table does not exist).
    private func recorded(_ url: String) throws -> [String] {
        try TestPostgres.recordedMigrations(url, columns: "id || ' ' || applied_at")
    }

    private func recordedIDs(_ url: String) throws -> [String] {
        try TestPostgres.recordedMigrations(url)
    }

    /// Whether the database has a table or column called `name` (`table` or `table.column`).
    private func exists(_ name: String, in url: String) throws -> Bool {
        let parts = name.split(separator: ".")
        let sql =
            parts.count == 1
            ? "SELECT to_regclass('\(name)') IS NOT NULL"
            : "SELECT count(*) > 0 FROM information_schema.columns WHERE table_name = '\(parts[0])' AND column_name = '\(parts[1])'"
        return try TestPostgres.psql(url, sql) == "t"
    }

    private func menuItemCount(_ url: String) throws -> Int {
        try #require(Int(try TestPostgres.psql(url, "SELECT count(*) FROM menu_items")))
    }

    @Test("a new database gets every migration, recorded; reopening applies nothing")
    func applyAndRecord() throws {
        let migrations = try StorageFixtures.postgresMigrations()
        let ids = migrations.map(\.id)
        try #require(ids.count >= 2)
        let (url, database) = try newDatabase()
        defer { TestPostgres.dropDatabase(url) }
        #expect(try PostgresStore.pendingMigrations(url: database, migrations: migrations) == ids)
        let first = try PostgresStore(url: database, migrations: migrations, connections: 1)
        first.close()
        #expect(first.appliedMigrationIDs == ids)
        #expect(try recordedIDs(url) == ids)
        let records = try recorded(url)
        let menuItems = try menuItemCount(url)
        #expect(menuItems >= 12)

        let second = try PostgresStore(url: database, migrations: migrations, connections: 1)
        second.close()
        #expect(second.appliedMigrationIDs == [])
        #expect(try PostgresStore.migrate(url: database, migrations: migrations) == [])
        #expect(try PostgresStore.pendingMigrations(url: database, migrations: migrations) == [])
        // Not applied again: the same records, from the first time, and the menu once.
        #expect(try recorded(url) == records)
        #expect(try menuItemCount(url) == menuItems)
    }

    @Test("a later migration is applied alone, after the earlier ones, once")
    func laterMigration() throws {
        let migrations = try StorageFixtures.postgresMigrations()
        let later = Migration(id: "9001_more_menu", sql: """
            INSERT INTO menu_items (id, name, category, price_minor, currency, available, position)
            VALUES ('hot-chocolate', 'Hot Chocolate', 'drinks', 400, 'USD', true, 1000);
            """)
        let (url, database) = try newDatabase()
        defer { TestPostgres.dropDatabase(url) }
        #expect(try PostgresStore.migrate(url: database, migrations: migrations) == migrations.map(\.id))
        let menuItems = try menuItemCount(url)
        #expect(try PostgresStore.pendingMigrations(url: database, migrations: migrations + [later]) == [later.id])
        #expect(try PostgresStore.migrate(url: database, migrations: migrations + [later]) == [later.id])
        #expect(try PostgresStore.migrate(url: database, migrations: migrations + [later]) == [])
        #expect(try recordedIDs(url) == migrations.map(\.id) + [later.id])
        #expect(try menuItemCount(url) == menuItems + 1)
    }

    @Test("a database with a migration this binary does not know is refused, naming it, and nothing is applied")
    func unknownMigration() throws {
        let migrations = try StorageFixtures.postgresMigrations()
        let future = Migration(id: "9999_from_the_future", sql: "CREATE TABLE from_the_future (id text PRIMARY KEY);")
        let pending = Migration(id: "9998_pending", sql: "CREATE TABLE pending (id text PRIMARY KEY);")
        let (url, database) = try newDatabase()
        defer { TestPostgres.dropDatabase(url) }
        _ = try PostgresStore.migrate(url: database, migrations: migrations + [future])
        let records = try recorded(url)

        for known in [migrations, migrations + [pending]] {
            let error = #expect(throws: StorageError.self) { try PostgresStore(url: database, migrations: known, connections: 1).close() }
            guard case .unknownMigrations(let ids) = error else {
                Issue.record("expected unknownMigrations, got \(String(describing: error))")
                return
            }
            #expect(ids == [future.id])
            #expect(error?.description.contains(future.id) == true, "\(String(describing: error))")
            // `migrate --dry-run` refuses it too.
            let dryRun = #expect(throws: StorageError.self) { try PostgresStore.pendingMigrations(url: database, migrations: known) }
            #expect(dryRun?.description.contains(future.id) == true, "\(String(describing: dryRun))")
        }
        // Nothing was applied: not the pending migration either.
        #expect(try recorded(url) == records)
        #expect(try !exists("pending", in: url))
        // A binary that knows both applies just the pending one.
        #expect(try PostgresStore.migrate(url: database, migrations: migrations + [pending, future]) == [pending.id])
        #expect(try exists("pending", in: url))
    }

    @Test("a failing migration is rolled back whole and not recorded; the ones before it stay; its fix applies")
    func failingMigration() throws {
        let migrations = try StorageFixtures.postgresMigrations()
        let before = Migration(id: "9001_before", sql: "CREATE TABLE before_broken (id text PRIMARY KEY);")
        // A new table with a row, a new column on a shipped table, then a statement that fails.
        let broken = Migration(id: "9002_broken", sql: """
            CREATE TABLE extra (id text PRIMARY KEY);
            INSERT INTO extra (id) VALUES ('a');
            ALTER TABLE menu_items ADD COLUMN extra_note text;
            UPDATE menu_items SET extra_note = 'half applied';
            SELECT * FROM no_such_table;
            """)
        let (url, database) = try newDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let error = #expect(throws: StorageError.self) {
            try PostgresStore(url: database, migrations: migrations + [before, broken], connections: 1).close()
        }
        guard case .migrationFailed(let id, let underlying) = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(id == broken.id)
        #expect(String(describing: underlying).contains("no_such_table"), "\(underlying)")
        #expect(error?.description.contains(broken.id) == true)

        // Each migration is a transaction of its own: the earlier ones stay, recorded.
        #expect(try recordedIDs(url) == migrations.map(\.id) + [before.id])
        #expect(try exists("before_broken", in: url))
        // Nothing of the broken one is left.
        #expect(try !exists("extra", in: url))
        #expect(try !exists("menu_items.extra_note", in: url))

        let fixed = Migration(id: broken.id, sql: "CREATE TABLE extra (id text PRIMARY KEY);")
        #expect(try PostgresStore.migrate(url: database, migrations: migrations + [before, fixed]) == [broken.id])
        #expect(try recordedIDs(url) == migrations.map(\.id) + [before.id, broken.id])
    }

    @Test("misuse is an error, not a trap: a store of no connections, a row count of a table not routemap's")
    func misuseThrows() throws {
        let migrations = try StorageFixtures.postgresMigrations()
        let (url, database) = try newDatabase()
        defer { TestPostgres.dropDatabase(url) }
        #expect(throws: StorageError.self) { try PostgresStore(url: database, migrations: migrations, connections: 0) }
        #expect(try recordedIDs(url) == [])
        let store = try PostgresStore(url: database, migrations: migrations, connections: 1)
        defer { store.close() }
        #expect(throws: InvariantViolation.self) { try store.rowCount(in: "pg_authid") }
        #expect(try store.rowCount(in: "bills") == 0)
    }

    @Test("a first migration that fails on a new database leaves nothing behind, not even the record table")
    func failingFirstMigration() throws {
        let (url, database) = try newDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let broken = Migration(id: "9001_broken_first", sql: "CREATE TABLE first (id text PRIMARY KEY); SELECT * FROM no_such_table;")
        let error = #expect(throws: StorageError.self) { try PostgresStore.migrate(url: database, migrations: [broken]) }
        guard case .migrationFailed(let id, _) = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(id == broken.id)
        #expect(try !exists("first", in: url))
        #expect(try !exists("routemap_migrations", in: url))
    }

    @Test("a migration with a COMMIT of its own is refused by name before anything is applied (it would commit half of itself)")
    func transactionStatementRefused() throws {
        let migrations = try StorageFixtures.postgresMigrations()
        let before = Migration(id: "9001_before", sql: "CREATE TABLE before_commit (id text PRIMARY KEY);")
        let broken = Migration(id: "9002_own_commit", sql: """
            CREATE TABLE half (id text PRIMARY KEY);
            COMMIT;
            CREATE TABLE other_half (id text PRIMARY KEY);
            """)
        let (url, database) = try newDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let error = #expect(throws: StorageError.self) {
            try PostgresStore(url: database, migrations: migrations + [before, broken], connections: 1).close()
        }
        guard case .transactionInMigration(let id, let statement) = error else {
            Issue.record("expected transactionInMigration, got \(String(describing: error))")
            return
        }
        #expect(id == broken.id)
        #expect(statement == "COMMIT;" || statement == "COMMIT", "\(statement)")
        #expect(try !exists("routemap_migrations", in: url))
        #expect(try !exists("half", in: url))
        #expect(try !exists("before_commit", in: url))
        #expect(throws: StorageError.self) { try PostgresStore.pendingMigrations(url: database, migrations: migrations + [before, broken]) }

        // BEGIN and END inside a DO block's body and a savepoint are not transaction statements.
        let fine = Migration(id: "9002_own_commit", sql: """
            CREATE TABLE half (id text PRIMARY KEY);
            SAVEPOINT seed;
            INSERT INTO half (id) VALUES ('dropped');
            ROLLBACK TO SAVEPOINT seed;
            DO $$ BEGIN INSERT INTO half (id) VALUES ('kept'); END $$;
            """)
        #expect(try PostgresStore.migrate(url: database, migrations: migrations + [before, fine]).suffix(2) == [before.id, fine.id])
        #expect(try TestPostgres.psql(url, "SELECT string_agg(id, ',') FROM half") == "kept")
    }

    @Test("a migration refused only at COMMIT (a deferred constraint) is rolled back and not recorded too")
    func failingAtCommit() throws {
        let migrations = try StorageFixtures.postgresMigrations()
        let broken = Migration(id: "9001_broken_at_commit", sql: """
            CREATE TABLE extra (id text PRIMARY KEY, parent text REFERENCES extra (id) DEFERRABLE INITIALLY DEFERRED);
            INSERT INTO extra (id, parent) VALUES ('child', 'no such parent');
            """)
        let (url, database) = try newDatabase()
        defer { TestPostgres.dropDatabase(url) }
        _ = try PostgresStore.migrate(url: database, migrations: migrations)
        let error = #expect(throws: StorageError.self) { try PostgresStore.migrate(url: database, migrations: migrations + [broken]) }
        guard case .migrationFailed(let id, let underlying) = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(id == broken.id)
        #expect(String(describing: underlying).contains("foreign key"), "\(underlying)")
        #expect(try recordedIDs(url) == migrations.map(\.id))
        #expect(try !exists("extra", in: url))
    }

    @Test("two nodes starting together on a new database apply each migration once, between them")
    func concurrentStarts() async throws {
        let migrations = try StorageFixtures.postgresMigrations()
        let (url, database) = try newDatabase()
        defer { TestPostgres.dropDatabase(url) }
        async let first = Task.detached { try PostgresStore.migrate(url: database, migrations: migrations) }.value
        async let second = Task.detached { try PostgresStore.migrate(url: database, migrations: migrations) }.value
        let applied = try await [first, second]
        #expect(applied.flatMap { $0 }.sorted() == migrations.map(\.id))
        #expect(try recordedIDs(url) == migrations.map(\.id))
    }

    /// A store on `database` that gives a statement one second (half a second on the server).
    private func impatientStore(_ database: DatabaseURL, _ migrations: [Migration]) throws -> PostgresStore {
        try PostgresStore(url: database, migrations: migrations, connections: 1, statementTimeout: .seconds(1), logger: Logger(label: "test"))
    }

    @Test("a migration takes as long as it takes: one longer than the store's statement limit (an index built on a big table) applies")
    func slowMigration() throws {
        let migrations = try StorageFixtures.postgresMigrations()
        let slow = Migration(id: "9001_slow", sql: "SELECT pg_sleep(2); CREATE TABLE after_the_wait (id text PRIMARY KEY);")
        let (url, database) = try newDatabase()
        defer { TestPostgres.dropDatabase(url) }
        let store = try impatientStore(database, migrations + [slow])
        store.close()
        #expect(store.appliedMigrationIDs == migrations.map(\.id) + [slow.id])
        #expect(try exists("after_the_wait", in: url))
        // The store's other statements keep their limit on the server: the migrations' connection,
        // without it, is not one of the store's.
        let reopened = try impatientStore(database, migrations + [slow])
        defer { reopened.close() }
        #expect(try reopened.inspecting("the timeout") { try $0.rows("SHOW statement_timeout").first?.decode(String.self) } == "500ms")
    }

    @Test("a node starting while another holds the migration lock past the statement limit (and a lock_timeout) waits for it, then starts")
    func waitsForTheMigrationLock() throws {
        let migrations = try StorageFixtures.postgresMigrations()
        let (url, database) = try newDatabase()
        defer { TestPostgres.dropDatabase(url) }
        try TestPostgres.alterDatabase(url, "SET lock_timeout = '200ms'")
        // Another node migrating for 2 s.
        let holder = try BackgroundSession(url, holding: "SELECT pg_advisory_lock(\(PostgresStore.migrationLock))", seconds: 2)
        defer { holder.end() }
        let start = ContinuousClock.now
        let store = try impatientStore(database, migrations)
        store.close()
        #expect(ContinuousClock.now - start > .seconds(1), "the lock was not waited for")
        #expect(store.appliedMigrationIDs == migrations.map(\.id))
        #expect(try recordedIDs(url) == migrations.map(\.id))
    }
}
