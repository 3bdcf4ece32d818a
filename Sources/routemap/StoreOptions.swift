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
        if let explicit = (try? Settings.migrations.resolve(migrations)) ?? nil {
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
