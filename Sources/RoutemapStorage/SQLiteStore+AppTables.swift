import GRDB
import RoutemapDomain

// The seam for apps beside the point of sale whose tables live in the same database file (the
// trivia app): their stores run their own SQL, on this store's connections, so the file keeps
// one pool of readers and one writer, and their writes join the same group commits.

extension SQLiteStore {
    /// Runs `body` in a read transaction on one of the pool's reader connections. Errors come
    /// out as ``StorageError`` unless `body` throws its own.
    package func readTables<T>(_ operation: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
        try StorageError.wrapping(operation()) {
            try pool.read(body)
        }
    }

    /// Runs `body` in a write transaction of this store's group commit, exactly as
    /// ``write(durability:_:)`` runs a point-of-sale transaction: committed with the others
    /// waiting at that moment, in a savepoint of its own, and rolled back alone if it throws
    /// (its error comes out unchanged).
    package func writeTables<T: Sendable>(durability: Durability, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writes.perform(needsFullSync: durability == .full) { transaction in try body(transaction.database) }
        } catch let error as DatabaseError {
            StorageMetrics.databaseErrors.increment()
            throw StorageError.database(operation: "a write transaction", underlying: error)
        }
    }
}

/// The point of sale's `idempotency_keys` table, read and written inside an app's own write
/// transaction (``SQLiteStore/writeTables(durability:_:)``): so an app's keyed change records
/// its answer with its effect, under the same rules (``IdempotencyKey/perform(device:now:in:_:)``)
/// and the same sweeper of expired keys.
package struct SQLiteRecordedAnswers: RecordedAnswers {
    let database: Database

    package init(_ database: Database) {
        self.database = database
    }

    package func recordedAnswer(deviceId: String, key: String) throws -> RecordedAnswer? {
        try RecordedAnswerRow.fetchOne(
            database.cachedStatement(sql: "SELECT * FROM idempotency_keys WHERE device_id = ? AND key = ?"), arguments: [deviceId, key]
        )?.recorded()
    }

    package func record(_ answer: RecordedAnswer) throws {
        try RecordedAnswerRow(answer).upsert(database)
    }
}
