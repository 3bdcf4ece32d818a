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
        try refuseForeignDatabase(at: path, busyTimeout: busyTimeout)
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw StorageError.cannotOpen(path: path, underlying: error)
        }
        let applied = try StorageError.wrapping("reading applied migrations") {
            try queue.read { try DatabaseMigrator().appliedIdentifiers($0) }
        }
        try? queue.close()
        return try pendingIDs(migrations, applied: applied)
    }
}
