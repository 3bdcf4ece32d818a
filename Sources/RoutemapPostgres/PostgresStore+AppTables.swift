import PostgresNIO
import RoutemapDomain

// The seam for apps beside the point of sale whose tables live in the same database (the trivia
// app), as `SQLiteStore+AppTables.swift` is on SQLite: their stores run their own SQL on this
// store's connections and threads, in its transactions (retried on deadlocks). They lock what
// they decide on, as `PostgresTransaction` does.

/// An app store's statements on one of the store's sessions, valid while the closure that
/// received it runs (on a store thread). Not `Sendable`: its transaction belongs to that thread
/// (see `PostgresTransaction`), so the compiler keeps it from being handed to another.
package struct AppTables {
    let transaction: PostgresTransaction
    var session: Session { transaction.session }

    /// The point of sale's `idempotency_keys`, in this transaction (an app's keyed change
    /// records its answer with its effect, under the same rules and lock). Records only
    /// inside ``PostgresStore/writeTables(durability:_:)``; reads anywhere.
    package var recordedAnswers: any RecordedAnswers { transaction }

    /// Runs `query` and returns its rows.
    @discardableResult
    package func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        try session.rows(query)
    }

    /// Sends `query` (a write whose result nobody reads) without waiting: it is checked before
    /// the next read or the commit.
    package func enqueue(_ query: PostgresQuery) {
        session.enqueue(query)
    }

    /// Sends `query`, a write that must change exactly `rows` rows, without waiting. If it
    /// changes another number (a concurrent transaction changed what this one decided on), the
    /// transaction runs again from the start, and sees that change.
    package func enqueue(_ query: PostgresQuery, changing rows: Int) {
        session.enqueue(query) { changed in
            guard changed == rows else {
                throw ConflictSignal(description: "a write changed \(changed ?? 0) rows, not \(rows)")
            }
        }
    }
}

extension PostgresStore {
    /// Runs `body`'s reads on a session: the current thread's (inside a transaction or a
    /// `read`), or one leased for them. Errors come out as the store's own reads' do.
    package func readTables<T>(_ operation: @autoclosure () -> String, _ body: (AppTables) throws -> T) throws -> T {
        try reading(operation()) { try body(AppTables(transaction: $0)) }
    }

    /// Runs `body` in one write transaction, exactly as ``write(durability:_:)`` runs a
    /// point-of-sale transaction.
    package func writeTables<T: Sendable>(durability: Durability, _ body: @escaping @Sendable (AppTables) throws -> T) async throws -> T {
        try await write(durability: durability) { transaction in
            guard let transaction = transaction as? PostgresTransaction else { throw InvariantViolation("not a PostgreSQL store's transaction") }
            return try body(AppTables(transaction: transaction))
        }
    }
}

@available(*, unavailable, message: "valid only on the store thread running the closure that received it")
extension AppTables: Sendable {}
