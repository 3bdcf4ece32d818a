import ArgumentParser
import RoutemapStorage

/// `routemap migrate`: applies pending migrations and exits (the server also does this at start-up).
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending migrations to the database and exit.")

    @OptionGroup var store: StoreOptions

    func run() throws {
        let path = store.resolvedDatabasePath
        let migrations = try store.loadMigrations()
        let applied = try SQLiteStore.migrate(path: path, migrations: migrations)
        if applied.isEmpty {
            print("routemap: \(path) is up to date at \(migrations.last?.id ?? "no migrations"); nothing to apply")
        } else {
            for id in applied { print("routemap: applied \(id)") }
            print("routemap: \(path) is now at \(applied.last!)")
        }
    }
}
