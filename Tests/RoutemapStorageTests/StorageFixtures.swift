import Foundation
import RoutemapDomain
import RoutemapStorage

/// The repository's migrations and real database files for the storage tests.
enum StorageFixtures {
    /// The repository's `Migrations/` directory.
    static let migrationsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Migrations", isDirectory: true)

    static func migrations() throws -> [Migration] {
        try MigrationLoader.load(directory: migrationsDirectory)
    }

    /// PostgreSQL's migrations (`Migrations/postgres/`).
    static func postgresMigrations() throws -> [Migration] {
        try MigrationLoader.load(directory: migrationsDirectory.appendingPathComponent("postgres", isDirectory: true))
    }

    static let rate875 = TaxRate(basisPoints: 875)!
}
