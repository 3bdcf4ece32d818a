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
        if let explicit = migrations ?? Environment.value("ROUTEMAP_MIGRATIONS") {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent()
            .appendingPathComponent("../share/routemap/Migrations", isDirectory: true).standardizedFileURL
        for candidate in [installed, URL(fileURLWithPath: "Migrations", isDirectory: true)] {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate
            }
        }
        throw ValidationError(
            "No migrations directory found (looked in \(installed.path) and ./Migrations). Pass --migrations or set ROUTEMAP_MIGRATIONS.")
    }

    func loadMigrations() throws -> [Migration] {
        try MigrationLoader.load(directory: try resolvedMigrationsDirectory())
    }
}
