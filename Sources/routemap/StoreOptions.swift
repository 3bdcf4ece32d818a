import ArgumentParser
import Foundation
import RoutemapStorage

/// Where the database and its migrations are: shared by `serve` and `migrate`.
struct StoreOptions: ParsableArguments {
    @Option(name: Settings.database.name, help: Settings.database.help)
    var databasePath: String?

    @Option(name: Settings.migrations.name, help: Settings.migrations.help)
    var migrations: String?

    /// The database file: the flag, the environment or the default (an empty flag counts as none).
    var resolvedDatabasePath: String {
        (try? Settings.database.resolve(databasePath)) ?? Settings.database.defaultValue()
    }

    /// The migrations directory: the flag, the environment, the installed location beside the
    /// binary (as in the container image), or the source tree's `Migrations/`.
    func resolvedMigrationsDirectory() throws -> URL {
        try InstalledDirectory.locate("Migrations", setting: Settings.migrations, flagValue: migrations)
    }

    func loadMigrations() throws -> [Migration] {
        try MigrationLoader.load(directory: try resolvedMigrationsDirectory())
    }
}
