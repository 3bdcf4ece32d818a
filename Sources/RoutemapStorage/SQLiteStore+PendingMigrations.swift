import Foundation
import GRDB

extension SQLiteStore {
    /// The ids of the `migrations` the database at `path` has not applied, in order, read
    /// without changing anything (a read-only connection; a missing file is not created and
    /// has applied none): for `routemap migrate --dry-run`.
    ///
    /// Throws ``StorageError/foreignDatabase(path:tables:)`` for another program's database,
    /// ``StorageError/unknownMigrations(_:)`` when the database has applied migrations
    /// that are not in `migrations`, and ``StorageError/transactionInMigration(id:statement:)``
    /// for a pending migration with a transaction statement of its own, as migrating would.
    public static func pendingMigrations(path: String, migrations: [Migration], busyTimeout: TimeInterval = 5) throws -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { return try pendingIDs(migrations, applied: []) }
        let queue: DatabaseQueue
        do {
            queue = try readOnlyQueue(at: path, busyTimeout: busyTimeout)
        } catch {
            throw StorageError.cannotOpen(path: path, underlying: error)
        }
        let (foreign, applied) = try StorageError.wrapping("reading applied migrations") {
            try queue.read { (try foreignTables(in: $0), try DatabaseMigrator().appliedIdentifiers($0)) }
        }
        if !foreign.isEmpty { throw StorageError.foreignDatabase(path: path, tables: foreign) }
        try? queue.close()
        return try pendingIDs(migrations, applied: applied)
    }
}
