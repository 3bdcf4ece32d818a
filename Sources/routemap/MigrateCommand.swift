import ArgumentParser
import Foundation
import RoutemapPostgres
import RoutemapStorage

/// `routemap migrate`: applies pending migrations and exits (the server also does this at start-up);
/// `--dry-run` lists them and changes nothing.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending migrations to the database and exit.")

    @OptionGroup var store: StoreOptions

    @Flag(help: "List the pending migrations and change nothing (the database is opened read-only, and not created if missing).")
    var dryRun = false

    func run() throws {
        if let url = try store.resolvedDatabaseURL() {
            try migrate(url)
            return
        }
        let path = store.resolvedDatabasePath
        let migrations = try store.loadMigrations()
        if dryRun {
            try listPending(path: path, migrations: migrations)
            return
        }
        let applied = try SQLiteStore.migrate(path: path, migrations: migrations)
        if applied.isEmpty {
            print("routemap: \(path) is up to date at \(migrations.last?.id ?? "no migrations"); nothing to apply")
        } else {
            for id in applied { print("routemap: applied \(id)") }
            print("routemap: \(path) is now at \(applied.last!)")
        }
    }

    /// The same on PostgreSQL: `Migrations/postgres/`, into the database at `url` (which must exist).
    private func migrate(_ url: DatabaseURL) throws {
        let migrations = try store.loadMigrations(postgres: true)
        let latest = migrations.last?.id ?? "no migrations"
        if dryRun {
            let pending = try PostgresStore.pendingMigrations(url: url, migrations: migrations)
            if pending.isEmpty {
                print("routemap: \(url) is up to date at \(latest); nothing pending")
                return
            }
            print("routemap: \(url) has \(pending.count) pending:")
            for id in pending { print("  \(id)") }
            print("routemap: dry run, nothing changed")
            return
        }
        let applied = try PostgresStore.migrate(url: url, migrations: migrations)
        if applied.isEmpty {
            print("routemap: \(url) is up to date at \(latest); nothing to apply")
        } else {
            for id in applied { print("routemap: applied \(id)") }
            print("routemap: \(url) is now at \(applied.last!)")
        }
    }

    private func listPending(path: String, migrations: [Migration]) throws {
        let pending = try SQLiteStore.pendingMigrations(path: path, migrations: migrations)
        if pending.isEmpty {
            print("routemap: \(path) is up to date at \(migrations.last?.id ?? "no migrations"); nothing pending")
            return
        }
        let missing = !FileManager.default.fileExists(atPath: path)
        print("routemap: \(path) \(missing ? "does not exist; migrate would create it and apply" : "has \(pending.count) pending"):")
        for id in pending { print("  \(id)") }
        print("routemap: dry run, nothing changed")
    }
}
