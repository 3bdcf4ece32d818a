import GRDB

extension SQLiteStore {
    /// Applies the `migrations` the database has not applied, with GRDB's `DatabaseMigrator`
    /// (which records them in `grdb_migrations`), and returns their ids.
    ///
    /// Refuses, before applying anything, a database that has applied unknown migrations, and
    /// a list with duplicate ids.
    static func apply(_ migrations: [Migration], to pool: DatabasePool) throws -> [String] {
        try Migration.checkUnique(migrations)
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.id) { database in
                do {
                    try database.execute(sql: migration.sql)
                } catch {
                    throw StorageError.migrationFailed(id: migration.id, underlying: error)
                }
            }
        }
        let applied = try StorageError.wrapping("reading applied migrations") {
            try pool.read { try migrator.appliedIdentifiers($0) }
        }
        let pending = try Migration.pendingIDs(migrations, applied: applied)
        try StorageError.wrapping("applying migrations") {
            try migrator.migrate(pool)
        }
        return pending
    }
}
