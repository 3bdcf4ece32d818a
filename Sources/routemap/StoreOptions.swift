import ArgumentParser
import Foundation
import RoutemapStorage

/// Where the database and its migrations are: shared by `serve` and `migrate`.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: "SQLite database file, created if missing. Env: ROUTEMAP_DB. Default: routemap.sqlite")
    var databasePath: String?

    @Option(
        help: """
            Directory of NNNN_name.sql migrations. Env: ROUTEMAP_MIGRATIONS. Default: \
            <executable>/../share/routemap/Migrations if present, else ./Migrations
            """)
    var migrations: String?

    var resolvedDatabasePath: String {
        databasePath ?? Environment.value("ROUTEMAP_DB") ?? "routemap.sqlite"
    }

    /// The migrations directory: the flag, the environment, the installed location beside the
    /// binary (as in the container image), or the source tree's `Migrations/`.
    func resolvedMigrationsDirectory() throws -> URL {
        try InstalledDirectory.locate("Migrations", explicit: migrations, flag: "--migrations", variable: "ROUTEMAP_MIGRATIONS")
    }

    func loadMigrations() throws -> [Migration] {
        try MigrationLoader.load(directory: try resolvedMigrationsDirectory())
    }
}
