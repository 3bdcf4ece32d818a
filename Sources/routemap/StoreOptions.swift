import ArgumentParser
import Foundation
import Logging
import RoutemapDomain
import RoutemapPostgres
import RoutemapStorage

/// Where the database and its migrations are: shared by `serve`, `migrate`, `devices` and
/// `menu`. PostgreSQL with `--database-url`, else the SQLite file at `--db`.
struct StoreOptions: ParsableArguments {
    @Option(name: Settings.database.name, help: Settings.database.help)
    var databasePath: String?

    @Option(name: Settings.databaseURL.name, help: Settings.databaseURL.help)
    var databaseURL: String?

    @Option(name: Settings.migrations.name, help: Settings.migrations.help)
    var migrations: String?

    /// The database file: the flag, the environment or the default (an empty flag counts as none).
    var resolvedDatabasePath: String {
        (try? Settings.database.resolve(databasePath)) ?? Settings.database.defaultValue()
    }

    /// The PostgreSQL database, when one is set (a URL that is not one stops the command).
    func resolvedDatabaseURL() throws(SettingError) -> DatabaseURL? {
        try Settings.databaseURL.resolve(databaseURL)
    }

    /// The migrations directory: the flag, the environment, the installed location beside the
    /// binary (as in the container image), or the source tree's `Migrations/`. PostgreSQL's are
    /// in its `postgres/` folder.
    func resolvedMigrationsDirectory(postgres: Bool = false) throws -> URL {
        let directory = try InstalledDirectory.locate("Migrations", setting: Settings.migrations, flagValue: migrations)
        return postgres ? directory.appendingPathComponent("postgres") : directory
    }

    func loadMigrations(postgres: Bool = false) throws -> [Migration] {
        try MigrationLoader.load(directory: try resolvedMigrationsDirectory(postgres: postgres))
    }

    /// Opens the database a server uses, for a command that acts on it (`devices`, `menu`): as
    /// ``open(connections:checkpointPages:logger:)``, but an SQLite path must hold a routemap
    /// database already. Otherwise one line on standard error, and exit 66 (no file, or one that
    /// cannot be read) or 65 (not a routemap database), as `backup` refuses them.
    func openExisting(connections: Int) throws -> OpenedStore {
        if try resolvedDatabaseURL() == nil {
            do {
                try SQLiteStore.requireExistingDatabase(at: resolvedDatabasePath)
            } catch {
                switch error {
                case .missing, .unreadable: throw refusal(error, exitStatus: 66)  // EX_NOINPUT
                case .notRoutemap: throw refusal(error, exitStatus: 65)  // EX_DATAERR
                }
            }
        }
        return try open(connections: connections)
    }

    /// Opens the store these options name, applying its pending migrations. `connections` is
    /// PostgreSQL's, `checkpointPages` SQLite's.
    func open(
        connections: Int = Settings.databaseConnections.defaultValue(), checkpointPages: Int = Settings.checkpointPages.defaultValue(),
        logger: Logger = Logger(label: "routemap")
    ) throws -> OpenedStore {
        if let url = try resolvedDatabaseURL() {
            return .postgres(try PostgresStore(url: url, migrations: try loadMigrations(postgres: true), connections: connections, logger: logger))
        }
        return .sqlite(try SQLiteStore(path: resolvedDatabasePath, migrations: try loadMigrations(), pagesPerCheckpoint: checkpointPages))
    }
}

/// An open store of either kind, with what the executable needs beyond ``POSStore``.
enum OpenedStore: Sendable {
    case sqlite(SQLiteStore)
    case postgres(PostgresStore)

    var store: any POSStore {
        switch self {
        case .sqlite(let store): store
        case .postgres(let store): store
        }
    }

    /// The SQLite file's path, or the PostgreSQL URL without its password: for logs.
    var location: String {
        switch self {
        case .sqlite(let store): store.path
        case .postgres(let store): store.url.description
        }
    }

    /// Closes it: SQLite checkpoints its write-ahead log; PostgreSQL closes its connections.
    func close() throws {
        switch self {
        case .sqlite(let store): try store.close()
        case .postgres(let store): store.close()
        }
    }

    /// How many bills are open and how many checked out, for metrics.
    func unpaidBillCounts() throws -> (open: Int, checkedOut: Int) {
        switch self {
        case .sqlite(let store): try store.unpaidBillCounts()
        case .postgres(let store): try store.unpaidBillCounts()
        }
    }
}
