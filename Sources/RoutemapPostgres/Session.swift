import Logging
import PostgresNIO
import RoutemapDomain

/// One leased connection in the hands of one thread, which sends statements and blocks until
/// each answers (a store thread, never an event loop's or the cooperative pool's).
///
/// Statements whose result nobody reads (a transaction's writes) can be queued instead: they
/// are sent at once, pipelined behind each other, and waited for all together before the next
/// read or the commit, so a transaction's writes cost one round trip instead of one each.
final class Session {
    let connection: PostgresConnection
    private let logger: Logger
    /// Set when the connection broke: the pool closes it instead of keeping it.
    private(set) var isBroken = false
    /// Queued statements, each with the check its result must pass.
    private var queued: [(answer: EventLoopFuture<PostgresQueryResult>, check: (PostgresQueryResult) throws -> Void)] = []

    init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Runs `query` and returns its rows, after the queued statements.
    @discardableResult
    func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        try flush()
        return try wait(connection.query(query, logger: logger)).rows
    }

    /// Runs `query` and returns how many rows it changed, after the queued statements.
    func execute(_ query: PostgresQuery) throws -> Int {
        try flush()
        return try wait(connection.query(query, logger: logger)).metadata.rows ?? 0
    }

    /// Sends `query` now and checks its result with `check` at the next ``flush()``.
    func enqueue(_ query: PostgresQuery, check: @escaping (PostgresQueryResult) throws -> Void = { _ in }) {
        queued.append((connection.query(query, logger: logger), check))
    }

    /// Waits for every queued statement, in order; throws the first failure (after waiting for
    /// the rest, so none is left running unseen).
    func flush() throws {
        guard !queued.isEmpty else { return }
        let pending = queued
        queued.removeAll(keepingCapacity: true)
        var failure: (any Error)?
        for (answer, check) in pending {
            do {
                let result = try wait(answer)
                if failure == nil { try check(result) }
            } catch {
                if failure == nil { failure = error }
            }
        }
        if let failure { throw failure }
    }

    /// The command tag of running `query` (e.g. `COMMIT`, or `ROLLBACK` for a commit the server
    /// refused because the transaction had failed), after the queued statements.
    func command(_ query: PostgresQuery) throws -> String {
        try flush()
        let result = try wait(connection.query(query, logger: logger))
        return result.metadata.command
    }

    private func wait(_ answer: EventLoopFuture<PostgresQueryResult>) throws -> PostgresQueryResult {
        do {
            return try answer.wait()
        } catch {
            if case .unreachable = DatabaseFailure(error) {
                isBroken = true
                throw ConnectionLost(underlying: error)
            }
            throw error
        }
    }
}
