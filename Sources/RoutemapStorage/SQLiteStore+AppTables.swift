import GRDB
import RoutemapDomain

// The seam for apps beside the point of sale whose tables live in the same database file (the
// trivia app): their stores run their own SQL, on this store's connections, so the file keeps
// one pool of readers and one writer, and their writes join the same group commits.

extension SQLiteStore {
    /// Runs `body` in a read transaction on one of the pool's reader connections. Errors come
    /// out as ``StorageError`` unless `body` throws its own.
    package func readTables<T>(_ operation: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
        try read(operation()) { transaction in try body(transaction.database) }
    }

    /// Runs `body` in a write transaction of this store's group commit, exactly as
    /// ``write(durability:_:)`` runs a point-of-sale transaction: committed with the others
    /// waiting at that moment, in a savepoint of its own, and rolled back alone if it throws
    /// (its error comes out unchanged).
    package func writeTables<T: Sendable>(durability: Durability, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await writeTransaction(durability: durability) { transaction in try body(transaction.database) }
    }

    /// The point of sale's `idempotency_keys` table, read and written inside an app's own write
    /// transaction (``writeTables(durability:_:)``) as the point of sale's own transactions do:
    /// so an app's keyed change records its answer with its effect, under the same rules
    /// (``IdempotencyKey/perform(device:now:in:_:)``) and the same sweeper of expired keys.
    package static func recordedAnswers(in database: Database) -> any RecordedAnswers {
        SQLiteTransaction(database: database)
    }
}
