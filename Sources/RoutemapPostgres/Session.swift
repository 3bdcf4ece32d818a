import Dispatch
import Logging
import PostgresNIO
import RoutemapDomain
import Synchronization

/// One leased connection in the hands of one thread, which sends statements and blocks until
/// each answers: a store thread, or the thread of a caller that reads synchronously (which may
/// be one of the cooperative pool's); never an event loop's.
///
/// Statements whose result nobody reads (a transaction's writes) can be queued instead: they
/// are sent at once, pipelined behind each other, and waited for all together before the next
/// read or the commit, so a transaction's writes cost one round trip instead of one each.
final class Session {
    let connection: PostgresConnection
    private let logger: Logger
    /// Set when the connection broke: the pool closes it instead of keeping it.
    private(set) var isBroken = false
    /// Set when the server refused a statement of the transaction in progress: the statements
    /// pipelined behind it are refused too, as the transaction is aborted (25P02), until the
    /// rollback.
    private var refused = false
    /// Queued statements, each with the check its result must pass, if any.
    private var queued: [Queued] = []

    private struct Queued {
        /// The number of rows the statement changed (from its command tag) or, run prepared,
        /// returned.
        let answer: EventLoopFuture<Int?>
        let check: ((Int?) throws -> Void)?
        /// Whether it runs prepared: then an answer that it no longer runs as prepared closes the
        /// connection (``replacingGone(_:)``).
        let isPrepared: Bool
    }

    /// How long a statement may take before the connection is given up as dead (`nil`: as long
    /// as it takes, for migrations). The server's `statement_timeout` on the store's
    /// connections is under it (``serverTimeout(under:)``).
    var timeout: Duration?

    /// The statements prepared on this connection, for ``rows(prepared:)`` and
    /// ``enqueue(prepared:check:)``; `nil` prepares none
    /// (a health check's connection, a migration's).
    private let prepared: PreparedStatements?

    init(connection: PostgresConnection, logger: Logger, timeout: Duration?, prepared: PreparedStatements? = nil) {
        self.connection = connection
        self.logger = logger
        self.timeout = timeout
        self.prepared = prepared
    }

    /// Marks the connection broken, so the pool closes it instead of keeping it: for one to a
    /// server this store cannot use (a read-only one).
    func giveUp() {
        isBroken = true
    }

    /// Runs `query` and returns its rows, after the queued statements.
    @discardableResult
    func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
        // Sent behind the queued statements (the server runs them in order), then all awaited:
        // a read costs one round trip, however many writes or locks went before it.
        let answer = connection.query(query, logger: logger)
        do {
            try flush()
        } catch {
            _ = try? wait(answer)
            throw error
        }
        return try wait(answer).rows
    }

    /// Runs `statement`, prepared on this connection (parsed and planned once per connection,
    /// by postgres-nio), and returns its rows, after the queued statements. For the reads every
    /// write makes; a statement run once in a while stays unprepared.
    func rows<Statement: PostgresPreparedStatement>(prepared statement: Statement) throws -> [PostgresRow]
    where Statement.Row == PostgresRow {
        guard let (prepared, preparing) = try preparedRun(of: Statement.self) else {
            return try rows(PostgresQuery(unsafeSQL: Statement.sql, binds: statement.makeBindings()))
        }
        let answer = run(on: prepared) { connection, logger in
            var rows: [PostgresRow] = []
            for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
            return rows
        }
        do {
            try flush()
        } catch {
            _ = try? wait(answer)
            throw error
        }
        return try firstRun(of: Statement.self, on: prepared, preparing: preparing) { try wait(answer) }
    }

    /// Sends `statement`, prepared on this connection, now (behind the queued statements, as
    /// ``enqueue(_:check:)``), and checks the number of rows it returns with `check` at the next
    /// ``flush()`` (a write that must change one row returns one for each it changed). For the
    /// locks and writes every change of a bill makes. Its first run on a connection goes alone
    /// and is waited for at once (see ``PreparedStatements``).
    func enqueue<Statement: PostgresPreparedStatement>(prepared statement: Statement, check: ((Int?) throws -> Void)? = nil)
        throws where Statement.Row == PostgresRow
    {
        guard let (prepared, preparing) = try preparedRun(of: Statement.self) else {
            return enqueue(PostgresQuery(unsafeSQL: Statement.sql, binds: try statement.makeBindings()), check: check)
        }
        // Counted from the rows: postgres-nio hands a prepared statement's result over as a row
        // stream even when it has no rows (its command tag then cannot be read: a trap).
        let answer = run(on: prepared) { connection, logger -> Int? in
            var count = 0
            for try await _ in try await connection.execute(statement, logger: logger) { count += 1 }
            return count
        }
        if preparing {
            let rows = try firstRun(of: Statement.self, on: prepared, preparing: true) { try wait(answer) }
            try check?(rows)
        } else {
            queued.append(Queued(answer: answer, check: check, isPrepared: true))
        }
    }

    /// How `Statement` runs on this connection now: `nil` unprepared (this connection prepares
    /// none; the transaction is aborted, so a statement prepared now would fail for good here;
    /// or its first run here failed), else prepared, its first run here (`preparing`) only once
    /// the queued statements have answered.
    private func preparedRun<Statement: PostgresPreparedStatement>(
        of _: Statement.Type
    ) throws -> (prepared: PreparedStatements, preparing: Bool)? {
        guard let prepared, !refused else { return nil }
        switch prepared.use(of: Statement.name) {
        case .unprepared: return nil
        case .prepared: return (prepared, false)
        case .prepare:
            try flush()
            return (prepared, true)
        }
    }

    /// Runs `body` in a task that starts on this thread, so nothing this thread sends after this
    /// returns can overtake its statement: the task writes it before it first suspends (it does
    /// not hop on entering nonisolated async code, checked in a small program), or else from a
    /// job the connection's event loop runs before any later write from here, which goes through
    /// the same event loop's queue. It goes on on that event loop (``EventLoopTaskExecutor``).
    private func run<Value: Sendable>(
        on prepared: PreparedStatements, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> Value
    ) -> EventLoopFuture<Value> {
        let connection = connection, logger = logger
        let promise = connection.eventLoop.makePromise(of: Value.self)
        Task.immediate(executorPreference: prepared.executor) {
            do {
                promise.succeed(try await body(connection, logger))
            } catch {
                promise.fail(error)
            }
        }
        return promise.futureResult
    }

    /// The answer of `Statement`'s run that `waiting` waits for, with the outcome of a first
    /// run on this connection (`preparing`) recorded in `prepared`. A statement that no longer
    /// runs as prepared (a migration changed what it returns) is ``ConnectionLost``: on a new
    /// connection it is prepared anew, and a write runs once more.
    private func firstRun<Statement: PostgresPreparedStatement, Value>(
        of _: Statement.Type, on prepared: PreparedStatements, preparing: Bool, _ waiting: () throws -> Value
    ) throws -> Value {
        do {
            let value = try waiting()
            if preparing { prepared.firstRun(of: Statement.name, succeeded: true) }
            return value
        } catch {
            if preparing { prepared.firstRun(of: Statement.name, succeeded: false) }
            throw replacingGone(error)
        }
    }

    /// `error` as ``ConnectionLost`` when it says a prepared statement no longer runs here
    /// (``statementGone``), with the connection marked broken; else `error` itself.
    private func replacingGone(_ error: any Error) -> any Error {
        guard let refusal = error as? PSQLError, Self.statementGone.contains(refusal.serverInfo?[.sqlState] ?? "") else { return error }
        isBroken = true
        return ConnectionLost(underlying: refusal)
    }

    /// A prepared statement gone from the server (26000), or one whose result a migration
    /// changed the shape of (0A000, "cached plan must not change result type").
    private static let statementGone: Set<String> = ["26000", "0A000"]

    /// Sends `query` now and checks the number of rows it changed (or returned) with `check`
    /// at the next ``flush()``.
    func enqueue(_ query: PostgresQuery, check: ((Int?) throws -> Void)? = nil) {
        queued.append(Queued(answer: connection.query(query, logger: logger).map { $0.metadata.rows }, check: check, isPrepared: false))
    }

    /// Waits for every queued statement, in order; throws the first failure (after waiting for
    /// the rest, so none is left running unseen).
    func flush() throws {
        guard !queued.isEmpty else { return }
        let pending = queued
        queued.removeAll(keepingCapacity: true)
        var failure: (any Error)?
        for statement in pending {
            do {
                let rows = try wait(statement.answer)
                if failure == nil { try statement.check?(rows) }
            } catch {
                let error = statement.isPrepared ? replacingGone(error) : error
                if failure == nil { failure = error }
            }
        }
        if let failure { throw failure }
    }

    /// Commits the transaction in progress and returns the command tag (`COMMIT`, or `ROLLBACK`
    /// for a transaction the server had failed).
    ///
    /// A queued statement whose result is checked is waited for first: a check that fails (or a
    /// statement refused) rolls the transaction back and is thrown, so `COMMIT` never follows a
    /// write that did not do what it had to. Without such a check (every write of a bill the
    /// transaction locked), `COMMIT` goes right behind the queued statements and costs no round
    /// trip of its own. When one of those failed, the server answered the `COMMIT` with `ROLLBACK`: nothing
    /// was committed, and that statement's error is thrown as it is (a lost connection among
    /// them is run again by the store, as before a commit). Throws ``CommitOutcomeUnknown`` when
    /// the `COMMIT` went out but its answer never came (the connection closed or went silent).
    func commit() throws -> String {
        if queued.contains(where: { $0.check != nil }) {
            do {
                try flush()
            } catch {
                rollback()
                throw error
            }
        }
        let commit = connection.query("COMMIT", logger: logger)
        do {
            try flush()
        } catch {
            // A statement that timed out here: the server may yet run it and the COMMIT; waiting
            // for that would only add another statement timeout.
            let silent = ((error as? ConnectionLost)?.underlying is StatementTimedOut)
            guard !silent, let tag = try? wait(commit).metadata.command else {
                throw CommitOutcomeUnknown(underlying: (error as? ConnectionLost) ?? ConnectionLost(underlying: error))
            }
            guard tag == "ROLLBACK" else {
                // A failure the server never saw (a statement postgres-nio refused to send):
                // the rest committed without it.
                throw CommitOutcomeUnknown(underlying: ConnectionLost(underlying: error))
            }
            throw error
        }
        do {
            return try wait(commit).metadata.command
        } catch let error as ConnectionLost {
            throw CommitOutcomeUnknown(underlying: error)
        }
    }

    /// The command tag of running `query` (e.g. `COMMIT`, or `ROLLBACK` for a commit the server
    /// refused because the transaction had failed), after the queued statements.
    func command(_ query: PostgresQuery) throws -> String {
        try flush()
        return try wait(connection.query(query, logger: logger)).metadata.command
    }

    /// Ends the transaction in progress, whatever state it is in: waits for the queued
    /// statements (their failures no longer matter), then sends `ROLLBACK`. A connection that
    /// cannot confirm the rollback is marked broken, so it is closed rather than handed to the
    /// next transaction still inside this one.
    func rollback() {
        guard !isBroken else { return }
        for statement in queued { _ = try? wait(statement.answer) }
        queued.removeAll()
        guard !isBroken else { return }
        do {
            guard try wait(connection.query("ROLLBACK", logger: logger)).metadata.command == "ROLLBACK" else {
                isBroken = true
                return
            }
            refused = false
        } catch {
            isBroken = true
        }
    }

    /// How long a statement may take before the connection is given up as dead, unless a store
    /// is told otherwise: every statement here is small, and without this a connection that
    /// went silent (a server gone without closing it) would hold its thread forever.
    static let defaultTimeout: Duration = .seconds(10)

    /// The `statement_timeout` for connections whose client gives a statement `limit`: a second
    /// under it (half, under two seconds). So a statement stuck waiting (on a row lock held
    /// long) is cancelled by the server, which releases its backend and answers 57014 on a
    /// connection still good, before the client gives the connection up: a client that closed
    /// it first left the backend waiting on the lock, one more each time (an abandoned backend
    /// counts against `max_connections` until the lock is released).
    static func serverTimeout(under limit: Duration) -> Duration {
        limit - min(.seconds(1), limit / 2)
    }

    /// The `lock_timeout` for connections whose client gives a statement `limit`: a third of
    /// ``serverTimeout(under:)`` (3 s under the default 10 s). A lock is held for milliseconds
    /// by a healthy transaction (another edit or pay of the same bill, the receipt counter); one
    /// held for seconds is held by something stuck (a node frozen mid-write, an operator's
    /// session), and each write waiting on it holds one of the node's few connections: so a
    /// waiter gives up sooner than a statement would, with 503 and `Retry-After`, and a burst of
    /// writes on one locked bill ties the pool up for a few seconds, not the statement limit.
    static func lockTimeout(under limit: Duration) -> Duration {
        serverTimeout(under: limit) / 3
    }

    /// Sets a new connection's `statement_timeout` and `idle_in_transaction_session_timeout` to
    /// ``serverTimeout(under:)`` of `limit`, and its `lock_timeout` to ``lockTimeout(under:)``,
    /// each unless the database's (or role's) own is shorter already.
    ///
    /// The second ends a transaction whose client stopped sending mid-way (a node frozen, paused
    /// or cut off by the network while it held a bill's row lock): the server rolls it back and
    /// releases its locks, where the other nodes' writes of that bill would otherwise wait for
    /// as long as the node stays frozen. A transaction here never waits between its statements
    /// for anything but this node's own code, so the limit never ends a healthy one.
    static func settingServerTimeout(under limit: Duration) -> PostgresQuery {
        let milliseconds = serverTimeout(under: limit).milliseconds
        let lock = max(1, lockTimeout(under: limit).milliseconds)
        return PostgresQuery(
            unsafeSQL: """
                SELECT set_config(name, limit_ms::text, false) FROM (
                    SELECT name, setting, CASE name WHEN 'lock_timeout' THEN \(lock) ELSE \(milliseconds) END AS limit_ms FROM pg_settings
                    WHERE name IN ('statement_timeout', 'idle_in_transaction_session_timeout', 'lock_timeout')) timeouts
                WHERE setting::bigint = 0 OR setting::bigint > limit_ms
                """)
    }

    private func wait<Value: Sendable>(_ answer: EventLoopFuture<Value>) throws -> Value {
        do {
            let outcome = Outcome<Value>()
            answer.whenComplete { result in outcome.set(result) }
            // In slices, looking at the connection in between: a statement written just as the
            // server closed the connection (a restart) may never be answered nor failed.
            let deadline = timeout.map { DispatchTime.now() + .nanoseconds(Int($0.nanoseconds)) }
            while true {
                if let result = outcome.wait(until: min(deadline ?? .distantFuture, .now() + .milliseconds(50))) { return try result.get() }
                if connection.isClosed {
                    isBroken = true
                    throw ConnectionLost(underlying: ClosedWhileWaiting())
                }
                if let deadline, DispatchTime.now() >= deadline {
                    isBroken = true
                    throw ConnectionLost(underlying: StatementTimedOut())
                }
            }
        } catch let error as ConnectionLost {
            throw error
        } catch {
            switch DatabaseFailure(error) {
            case .unreachable:
                isBroken = true
                throw ConnectionLost(underlying: error)
            case _ where (error as? PSQLError)?.serverInfo?[.sqlState] == "25P02":
                // "current transaction is aborted". Behind a statement of this transaction that
                // the server refused (a lock timeout, a deadlock), it was not run: the caller
                // sees that first failure and rolls back, and the connection stays good. With
                // no such failure, a transaction was left open on the connection: it is
                // unusable, so close it (which ends that transaction) and let the caller run
                // again on a new one.
                guard refused else {
                    isBroken = true
                    throw ConnectionLost(underlying: error)
                }
                throw error
            default:
                if error is PSQLError { refused = true }
                throw error
            }
        }
    }
}

/// The connection closed while a statement waited for its answer.
struct ClosedWhileWaiting: Error, CustomStringConvertible {
    var description: String { "the connection closed before the statement was answered" }
}

/// A statement's answer that did not come within ``Session/timeout``.
struct StatementTimedOut: Error, CustomStringConvertible {
    var description: String { "no answer from PostgreSQL within the statement timeout" }
}

/// The result of one statement, handed from the event loop to the waiting store thread.
private final class Outcome<Value: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Mutex<Result<Value, any Error>?>(nil)

    func set(_ value: Result<Value, any Error>) {
        result.withLock { $0 = value }
        done.signal()
    }

    /// The result, or `nil` if none came by `deadline`.
    func wait(until deadline: DispatchTime) -> Result<Value, any Error>? {
        guard done.wait(timeout: deadline) == .success else { return nil }
        return result.withLock { $0 }
    }
}
