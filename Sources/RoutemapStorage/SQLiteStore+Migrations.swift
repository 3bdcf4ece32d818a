import GRDB
import GRDBSQLite

extension SQLiteStore {
    /// Applies the `migrations` the database has not applied, with GRDB's `DatabaseMigrator`
    /// (which records them in `grdb_migrations`), and returns their ids.
    ///
    /// Refuses, before applying anything, a database that has applied unknown migrations, a
    /// list with duplicate ids, and a pending migration that begins or ends a transaction itself.
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
        let pending = try pendingIDs(migrations, applied: applied)
        try StorageError.wrapping("applying migrations") {
            try migrator.migrate(pool)
        }
        return pending
    }

    /// The ids of `migrations` not in `applied` (``Migration/pendingIDs(_:applied:)``), after
    /// refusing a pending one that begins or ends a transaction itself.
    static func pendingIDs(_ migrations: [Migration], applied: Set<String>) throws -> [String] {
        let pending = try Migration.pendingIDs(migrations, applied: applied)
        for migration in migrations where pending.contains(migration.id) {
            try migration.refuseTransactionStatements(statements(in: migration.sql))
        }
        return pending
    }

    /// `script` split into its statements as SQLite reads them: at each `;` where
    /// `sqlite3_complete` says a statement ends, so that a `;` in a string, a comment or a
    /// trigger's `BEGIN … END` body splits nothing. What follows the last `;` is a statement
    /// too when it holds more than blanks.
    static func statements(in script: String) -> [String] {
        var statements: [String] = []
        var start = script.startIndex
        var index = script.startIndex
        while let semicolon = script[index...].firstIndex(of: ";") {
            let candidate = script[start...semicolon]
            if String(candidate).withCString({ sqlite3_complete($0) }) != 0 {
                statements.append(String(candidate))
                start = script.index(after: semicolon)
            }
            index = script.index(after: semicolon)
        }
        let rest = script[start...]
        if !rest.allSatisfy(\.isWhitespace) { statements.append(String(rest)) }
        return statements
    }
}
