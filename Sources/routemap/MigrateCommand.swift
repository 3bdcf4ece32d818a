import ArgumentParser
import Foundation
import Logging
import RoutemapPostgres
import RoutemapStorage

/// `routemap migrate`: applies pending migrations and exits (the server also does this at start-up);
/// `--dry-run` lists them and changes nothing.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending migrations to the database and exit.")

    @OptionGroup var store: StoreOptions

    // `serve`'s setting: an init container that runs `migrate` before the nodes waits for the
    // database as they do.
    @Option(name: Settings.databaseWait.name, parsing: .unconditional, help: Settings.databaseWait.help) var databaseWait: String?

    @Flag(help: "List the pending migrations and change nothing (the database is opened read-only, and not created if missing).")
    var dryRun = false

    func run() throws {
        do {
            try migrate(try target())
        } catch let error as StorageError {
            throw refusal(error)
        }
    }

    private func migrate(_ database: Target) throws {
        if dryRun {
            let pending = try database.pending()
            guard !pending.isEmpty else {
                print("routemap: \(database.name) is up to date at \(database.latest); nothing pending")
                return
            }
            let state = database.isMissing ? "does not exist; migrate would create it and apply" : "has \(pending.count) pending"
            print("routemap: \(database.name) \(state):")
            for id in pending { print("  \(id)") }
            print("routemap: dry run, nothing changed")
            return
        }
        let applied = try database.apply()
        guard let last = applied.last else {
            print("routemap: \(database.name) is up to date at \(database.latest); nothing to apply")
            return
        }
        for id in applied { print("routemap: applied \(id)") }
        print("routemap: \(database.name) is now at \(last)")
    }

    /// The database to migrate, SQLite's file or PostgreSQL's (`--database-url`, whose
    /// migrations are `Migrations/postgres/`), and how to list and apply its migrations.
    private struct Target {
        let name: String
        /// The last migration known to this binary.
        let latest: String
        /// Whether the database does not exist yet (a SQLite file `migrate` would create).
        let isMissing: Bool
        let pending: () throws -> [String]
        let apply: () throws -> [String]
    }

    private func target() throws -> Target {
        if let url = try store.resolvedDatabaseURL() {
            let migrations = try store.loadMigrations(postgres: true)
            // Signals keep their default action here: a stop ends the wait, and the command, at once.
            let wait = DatabaseWait.sleeping(
                limit: .seconds(try Settings.databaseWait.resolve(databaseWait)), location: url.description, logger: Logger(label: "routemap"))
            return Target(
                name: "\(url)", latest: migrations.last?.id ?? "no migrations", isMissing: false,
                pending: { try wait.run { try PostgresStore.pendingMigrations(url: url, migrations: migrations) } },
                apply: { try wait.run { try PostgresStore.migrate(url: url, migrations: migrations) } })
        }
        let path = store.resolvedDatabasePath
        let migrations = try store.loadMigrations()
        return Target(
            name: path, latest: migrations.last?.id ?? "no migrations", isMissing: !FileManager.default.fileExists(atPath: path),
            pending: { try SQLiteStore.pendingMigrations(path: path, migrations: migrations) },
            apply: { try SQLiteStore.migrate(path: path, migrations: migrations) })
    }
}
