import Foundation
import GRDB
import RoutemapTestSupport

/// A database for `routemap migrate` and `serve` to migrate, on the store the end-to-end tests
/// run on: a SQLite file, or (with `ROUTEMAP_TEST_DATABASE_URL`) a new PostgreSQL database; and
/// a migrations folder of its own, laid out as the shipped one (PostgreSQL's in `postgres/`),
/// that starts as a copy of the shipped migrations and that a test can cut short or add to.
/// ``cleanUp()`` removes the folder and drops the database.
final class MigrationWorkspace {
    let directory: URL
    /// The PostgreSQL database's URL, or `nil` on SQLite.
    let url: String?
    private let sqlitePath: String

    /// The shipped migrations' folder (`--migrations` of a binary that knows just those).
    static let shipped = RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations")

    /// Copies into this workspace's folder the shipped migrations of this store whose id
    /// `keeping` accepts (all of them by default).
    init(keeping: (String) -> Bool = { _ in true }) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routemap-migrations-\(UUID().uuidString)")
        let folder = Self.storeFolder(in: directory.appendingPathComponent("Migrations"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let shipped = Self.storeFolder(in: Self.shipped)
        for id in try Self.ids(in: shipped) where keeping(id) {
            try FileManager.default.copyItem(at: shipped.appendingPathComponent(id + ".sql"), to: folder.appendingPathComponent(id + ".sql"))
        }
        self.directory = directory
        sqlitePath = directory.appendingPathComponent("db.sqlite").path
        url = TestPostgres.isEnabled ? try TestPostgres.newDatabase() : nil
    }

    /// The folder to pass as `--migrations`.
    var migrations: URL { directory.appendingPathComponent("Migrations") }

    /// The ids of the shipped migrations of the store the tests run on, in order.
    static func shippedIDs() throws -> [String] { try ids(in: storeFolder(in: shipped)) }

    /// The ids of the migrations in this workspace's folder, in order.
    func ids() throws -> [String] { try Self.ids(in: Self.storeFolder(in: migrations)) }

    /// Adds a migration to this workspace's folder.
    func add(_ id: String, sql: String) throws {
        try sql.write(to: Self.storeFolder(in: migrations).appendingPathComponent(id + ".sql"), atomically: true, encoding: .utf8)
    }

    /// The arguments naming the database: `--db PATH`, or `--database-url URL` (with a `--db`
    /// in this folder, so nothing is made where the tests run).
    var databaseArguments: [String] {
        guard let url else { return ["--db", sqlitePath] }
        return ["--database-url", url, "--db", directory.appendingPathComponent("unused.sqlite").path]
    }

    /// The ids of the migrations the database has recorded as applied, in order (`[]` when
    /// there is no database or no record yet).
    func recordedIDs() throws -> [String] {
        if let url { return try TestPostgres.recordedMigrations(url) }
        guard FileManager.default.fileExists(atPath: sqlitePath) else { return [] }
        return try DatabaseQueue(path: sqlitePath).read { database in
            guard try database.tableExists("grdb_migrations") else { return [] }
            return try String.fetchAll(database, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        }
    }

    /// The names of the database's tables, sorted (`[]` when there is no database yet).
    func tables() throws -> [String] {
        if let url {
            return try TestPostgres.psql(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")
                .split(separator: "\n").map(String.init)
        }
        guard FileManager.default.fileExists(atPath: sqlitePath) else { return [] }
        return try DatabaseQueue(path: sqlitePath).read { database in
            try String.fetchAll(database, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
    }

    /// Whether the SQLite database file exists (never on PostgreSQL, where the database is the
    /// server's): a dry run must not create a missing one.
    var sqliteFileExists: Bool { FileManager.default.fileExists(atPath: sqlitePath) }

    /// Whether the database has a table called `name`.
    func hasTable(_ name: String) throws -> Bool { try tables().contains(name) }

    func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
        if let url { TestPostgres.dropDatabase(url) }
    }

    /// Where a migrations folder keeps this store's migrations.
    private static func storeFolder(in folder: URL) -> URL {
        TestPostgres.isEnabled ? folder.appendingPathComponent("postgres") : folder
    }

    private static func ids(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.map { String($0.dropLast(4)) }.sorted()
    }
}
