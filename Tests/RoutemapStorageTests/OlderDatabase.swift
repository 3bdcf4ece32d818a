import RoutemapDomain
import RoutemapPostgres
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// A database as the binary from before one migration left it, then opened by today's binary:
/// the migrations before it applied, rows written as that binary wrote them, and then that
/// migration and every later one applied by opening the database again. On PostgreSQL when the
/// tests run there (the rows go in through psql, as an older node's would), else a SQLite file.
///
/// What each migration test over older rows starts from. It checks that the older store applied
/// exactly the migrations before the named one and that today's applied exactly the rest, so a
/// new migration needs no edit here or in those tests. Call ``close()`` when done (a `defer`
/// right after creating it): that keeps it, its file and its database alive until then.
final class OlderDatabase {
    let directory: TemporaryDirectory
    /// The SQLite file (unused on PostgreSQL).
    let path: String
    /// The PostgreSQL database's URL, or `nil` on SQLite.
    let url: String?
    /// Today's store on the migrated database.
    let store: any TestStore

    /// - Parameters:
    ///   - first: the id of the first migration the older binary did not have, such as
    ///     `"0026_pos_bill_labels"`.
    ///   - rows: the SQL that writes the older binary's rows, given the older store (to enroll a
    ///     device first, say).
    ///   - olderSQLite: on SQLite, what the test checks of the older store once the rows are in,
    ///     before it closes (PostgreSQL's older store only migrates).
    init(
        before first: String, rows: (any TestStore) async throws -> String,
        olderSQLite: (SQLiteStore) async throws -> Void = { _ in }, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        directory = try TemporaryDirectory()
        path = directory.path("db.sqlite")
        url = TestDatabase.onPostgres ? try TestPostgres.newDatabase() : nil
        do {
            let migrations = try url == nil ? StorageFixtures.migrations() : StorageFixtures.postgresMigrations()
            try #require(migrations.contains { $0.id == first }, "no migration \(first)", sourceLocation: sourceLocation)
            let older = migrations.filter { $0.id < first }
            let newer = migrations.filter { $0.id >= first }
            let applied: [String]
            if let url {
                let database = try #require(DatabaseURL(url), sourceLocation: sourceLocation)
                let olderStore = try PostgresStore(url: database, migrations: older, connections: 2)
                #expect(olderStore.appliedMigrationIDs == older.map(\.id), sourceLocation: sourceLocation)
                let statements = try await rows(olderStore)
                olderStore.close()
                _ = try TestPostgres.psql(url, statements)
                let migrated = try PostgresStore(url: database, migrations: migrations, connections: 4)
                (store, applied) = (migrated, migrated.appliedMigrationIDs)
            } else {
                let olderStore = try SQLiteStore(path: path, migrations: older)
                #expect(olderStore.appliedMigrationIDs == older.map(\.id), sourceLocation: sourceLocation)
                let statements = try await rows(olderStore)
                try olderStore.onWriter("writing rows from before \(first)") { try $0.execute(sql: statements) }
                try await olderSQLite(olderStore)
                try olderStore.close()
                let migrated = try SQLiteStore(path: path, migrations: migrations)
                (store, applied) = (migrated, migrated.appliedMigrationIDs)
            }
            #expect(applied == newer.map(\.id), sourceLocation: sourceLocation)
        } catch {
            if let url { TestPostgres.dropDatabase(url) }
            throw error
        }
    }

    /// ``init(before:rows:olderSQLite:sourceLocation:)`` with rows that do not depend on the older store.
    convenience init(
        before first: String, rows: String, olderSQLite: (SQLiteStore) async throws -> Void = { _ in },
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await self.init(before: first, rows: { _ in rows }, olderSQLite: olderSQLite, sourceLocation: sourceLocation)
    }

    /// An open bill of device `dev_old` (no tax), `bill_1`, with one line of two lattes,
    /// `line_1`, written as every binary since bills had devices wrote them.
    static let openBillOfTwoLattes = """
        INSERT INTO bills (id, status, currency, tax_rate_bps, subtotal_minor, tax_minor, total_minor, version, created_at,
                           updated_at, device_id, selected_at)
        VALUES ('bill_1', 'open', 'USD', 0, 950, 0, 950, 2, '2025-01-01T09:00:00.000Z', '2025-01-01T09:00:00.000Z', 'dev_old',
                '2025-01-01T09:00:00.000Z');
        INSERT INTO bill_lines (bill_id, position, line_id, menu_item_id, name, quantity, unit_price_minor)
        VALUES ('bill_1', 0, 'line_1', 'latte', 'Latte', 2, 475);
        """

    /// Closes today's store and, on PostgreSQL, drops the database (SQLite's file goes with the
    /// directory).
    func close() {
        guard let url else { return }
        (store as? PostgresStore)?.close()
        TestPostgres.dropDatabase(url)
    }
}
