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
        do {
            return try MigrationLoader.load(directory: try resolvedMigrationsDirectory(postgres: postgres))
        } catch let error as StorageError {
            throw refusal(error)
        }
    }

    /// Opens the database a server uses, for a command that acts on it (`devices`, `menu`): as
    /// ``open(connections:checkpointPages:logger:)``, but the database must exist and be at
    /// this binary's latest migration. Otherwise one line on standard error, and exit 66 (no
    /// file, or one that cannot be read) or 65 (not a routemap database, or migrations pending:
    /// applying them under a running older server would change its schema beneath it), as
    /// `backup` refuses them.
    func openExisting(connections: Int) throws -> OpenedStore {
        let migrations: [Migration]
        if let url = try resolvedDatabaseURL() {
            migrations = try loadMigrations(postgres: true)
            try refusePending(in: url.description) { try PostgresStore.pendingMigrations(url: url, migrations: migrations) }
        } else {
            do {
                try SQLiteStore.requireExistingDatabase(at: resolvedDatabasePath)
            } catch {
                switch error {
                case .missing, .unreadable: throw refusal(error, exitStatus: 66)  // EX_NOINPUT
                case .notRoutemap: throw refusal(error, exitStatus: 65)  // EX_DATAERR
                }
            }
            migrations = try loadMigrations()
            try refusePending(in: resolvedDatabasePath) { try SQLiteStore.pendingMigrations(path: resolvedDatabasePath, migrations: migrations) }
        }
        return try open(connections: connections, migrations: migrations)
    }

    private func refusePending(in database: String, _ pending: () throws -> [String]) throws {
        let ids: [String]
        do {
            ids = try pending()
        } catch let error as StorageError {
            throw refusal(error)
        }
        guard let first = ids.first else { return }
        throw refusal(
            "\(database) has \(ids.count) migration\(ids.count == 1 ? "" : "s") pending, from \(first): "
                + "run `routemap migrate` (or start the server) first; this command changes no schema",
            exitStatus: 65)  // EX_DATAERR
    }

    /// Opens the store these options name, applying its pending migrations. `connections` is
    /// PostgreSQL's, `checkpointPages` SQLite's; `wait` says how long to keep trying a
    /// PostgreSQL server that cannot be reached (`serve`'s `--database-wait`; without it, one
    /// attempt). A store that cannot be opened or migrated stops the command with one line
    /// (``refusal(_:)``).
    func open(
        connections: Int = Settings.databaseConnections.defaultValue(), checkpointPages: Int = Settings.checkpointPages.defaultValue(),
        migrations: [Migration]? = nil, logger: Logger = Logger(label: "routemap"),
        wait: ((DatabaseURL) -> DatabaseWait)? = nil
    ) throws -> OpenedStore {
        do {
            if let url = try resolvedDatabaseURL() {
                let migrations = try migrations ?? loadMigrations(postgres: true)
                let open = { try PostgresStore(url: url, migrations: migrations, connections: connections, logger: logger) }
                return .postgres(try wait.map { try $0(url).run(open) } ?? open())
            }
            let migrations = try migrations ?? loadMigrations()
            return .sqlite(try SQLiteStore(path: resolvedDatabasePath, migrations: migrations, pagesPerCheckpoint: checkpointPages))
        } catch let error as StorageError {
            throw refusal(error)
        }
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

    /// Ends what waits on the database now, before the close (PostgreSQL: its connections are
    /// closed; SQLite's calls do not wait on a server, so nothing).
    func interrupt() {
        if case .postgres(let store) = self { store.interrupt() }
    }

    /// How many bills are open and how many checked out, for metrics.
    func unpaidBillCounts() throws -> (open: Int, checkedOut: Int) {
        switch self {
        case .sqlite(let store): try store.unpaidBillCounts()
        case .postgres(let store): try store.unpaidBillCounts()
        }
    }
}
