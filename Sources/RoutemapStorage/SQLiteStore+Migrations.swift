import GRDB

extension SQLiteStore {
    /// Applies the `migrations` the database has not applied, with GRDB's `DatabaseMigrator`
    /// (which records them in `grdb_migrations`), and returns their ids.
    ///
    /// Refuses, before applying anything, a database that has applied unknown migrations, and
    /// a list with duplicate ids.
    static func apply(_ migrations: [Migration], to pool: DatabasePool) throws -> [String] {
        let ids = migrations.map(\.id)
        if let duplicate = Dictionary(grouping: ids, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw StorageError.duplicateMigration(number: duplicate, files: [duplicate, duplicate])
        }
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
        let unknown = applied.subtracting(ids).sorted()
        guard unknown.isEmpty else { throw StorageError.unknownMigrations(unknown) }
        let pending = ids.filter { !applied.contains($0) }
        try StorageError.wrapping("applying migrations") {
            try migrator.migrate(pool)
        }
        return pending
    }
}
