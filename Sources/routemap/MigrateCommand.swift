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
        let store = try SQLiteStore(path: path, migrations: migrations)
        try store.close()
        print("routemap: \(path) is at migration \(migrations.last?.id ?? "none") (\(migrations.count) known)")
    }
}
