import Dispatch
import Foundation
import Logging
import PostgresNIO
import RoutemapDomain
import Synchronization

/// A bounded pool of connections to one database, leased by blocking threads.
///
/// The store runs its transactions and reads synchronously on threads of its own (the domain's
/// transaction bodies are synchronous), so a lease here blocks the calling thread until a
/// connection is free, never a cooperative one. postgres-nio's `PostgresClient` leases only
/// from async code: from these threads that would mean waiting on a task that itself needs the
/// cooperative pool, which may be the very threads waiting. Connections are made on demand, up
/// to `capacity`, and one found closed (the server restarted) is dropped and replaced: the pool
/// reconnects by itself. While the server cannot be reached a lease throws ``StoreUnavailable``
/// at once (the connect attempt's own error, or its timeout), so requests fail fast with 503.
/// A new connection gets the server's `statement_timeout` under the client's limit
/// (``Session/serverTimeout(under:)``), so the server gives up on a statement first.
final class ConnectionPool: Sendable {
    private let configuration: PostgresConnection.Configuration
    private let eventLoops: any EventLoopGroup
    private let logger: Logger
    /// Free places: a lease takes one (waiting for it), a release gives it back.
    private let places: DispatchSemaphore
    private let state = Mutex(State())
    /// How long a lease waits for a free connection before the store reports contention.
    private let leaseTimeout: TimeInterval
    /// How long the store's sessions wait for a statement (``Session/timeout``).
    let statementTimeout: Duration

    private struct State {
        var idle: [PostgresConnection] = []
        /// The connections leased now, by id: closed by ``close()`` too.
        var leased: [Int: PostgresConnection] = [:]
        /// Each open connection's prepared statements, by connection id (never reused).
        var prepared: [Int: PreparedStatements] = [:]
        var nextID = 1
        var closed = false
    }

    init(
        configuration: PostgresConnection.Configuration, capacity: Int, eventLoops: any EventLoopGroup, logger: Logger,
        leaseTimeout: TimeInterval = 10, statementTimeout: Duration = Session.defaultTimeout
    ) {
        precondition(capacity >= 1)
        self.configuration = configuration
        self.eventLoops = eventLoops
        self.logger = logger
        self.leaseTimeout = leaseTimeout
        self.statementTimeout = statementTimeout
        places = DispatchSemaphore(value: capacity)
    }

    /// A connection for the calling thread's exclusive use until ``release(_:broken:)``: an idle one
    /// that is still open, else a new one. Blocks while `capacity` connections are leased.
    func lease() throws -> PostgresConnection {
        guard places.wait(timeout: .now() + leaseTimeout) == .success else {
            throw StoreUnavailable(.contention, detail: "no database connection free for \(Int(leaseTimeout)) s")
        }
        while true {
            let (connection, id, closed) = state.withLock { state -> (PostgresConnection?, Int, Bool) in
                let id = state.nextID
                guard let connection = state.idle.popLast() else {
                    state.nextID += 1
                    return (nil, id, state.closed)
                }
                return (connection, id, state.closed)
            }
            if closed {
                places.signal()
                throw StoreUnavailable(.unreachable, detail: "the store is closed")
            }
            if let connection {
                if connection.isClosed {  // The server went away meanwhile: make another.
                    _ = state.withLock { $0.prepared.removeValue(forKey: connection.id) }
                    continue
                }
                guard track(connection) else {
                    connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
                    places.signal()
                    throw StoreUnavailable(.unreachable, detail: "the store is closed")
                }
                return connection
            }
            let made: PostgresConnection
            do {
                made = try connect(id: id)
            } catch {
                places.signal()
                if (error as? PSQLError)?.serverInfo?[.sqlState] == DatabaseMissing.sqlState {
                    throw DatabaseMissing(database: configuration.database ?? configuration.username)
                }
                throw StoreUnavailable(.unreachable, detail: "cannot connect: \(String(reflecting: error))")
            }
            do {
                guard track(made) else { throw StoreUnavailable(.unreachable, detail: "the store is closed") }
                try Session(connection: made, logger: logger, timeout: statementTimeout)
                    .rows(Session.settingServerTimeout(under: statementTimeout))
                return made
            } catch {
                release(made, broken: true)
                throw StoreUnavailable(.unreachable, detail: "cannot set up a new connection: \(Described(error))")
            }
        }
    }

    /// Gives back a connection `lease()` returned. A `broken` one (or one the server closed)
    /// is closed and forgotten; the next lease makes a new one.
    func release(_ connection: PostgresConnection, broken: Bool = false) {
        let keep = state.withLock { state in
            state.leased[connection.id] = nil
            guard !broken, !connection.isClosed, !state.closed else {
                state.prepared[connection.id] = nil
                return false
            }
            state.idle.append(connection)
            return true
        }
        // Kept until closed: postgres-nio asserts a connection is closed when it is freed.
        if !keep { connection.close().whenComplete { _ in withExtendedLifetime(connection) {} } }
        places.signal()
    }

    /// Refuses new leases and closes every connection, the leased ones too: a thread waiting on
    /// a statement of one (a database that hangs) sees it closed within its next slice and
    /// returns (``Session``), and a connection being made is given up, so a stop is not held
    /// up by the statement limit or the connect timeout. Their threads release them as usual.
    func close() {
        let all = state.withLock { state in
            state.closed = true
            state.prepared.removeAll()
            defer { state.idle.removeAll() }
            return state.idle + state.leased.values
        }
        for connection in all { _ = try? connection.close().wait() }
    }

    /// The statements prepared on `connection`, one of this pool's.
    func preparedStatements(of connection: PostgresConnection) -> PreparedStatements {
        state.withLock { state in
            if let known = state.prepared[connection.id] { return known }
            let made = PreparedStatements(eventLoop: connection.eventLoop)
            state.prepared[connection.id] = made
            return made
        }
    }

    /// Notes `connection` as leased, unless the pool is closed.
    private func track(_ connection: PostgresConnection) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.leased[connection.id] = connection
            return true
        }
    }

    /// A new connection, waited for in slices so that a ``close()`` meanwhile gives it up (a
    /// server that does not answer would otherwise hold the thread for the connect timeout).
    private func connect(id: Int) throws -> PostgresConnection {
        let connecting = PostgresConnection.connect(on: eventLoops.any(), configuration: configuration, id: id, logger: logger)
        let done = DispatchSemaphore(value: 0)
        connecting.whenComplete { _ in done.signal() }
        while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            guard state.withLock({ $0.closed }) else { continue }
            // Closed once made; kept until then (postgres-nio asserts a connection is closed when freed).
            connecting.whenSuccess { connection in connection.close().whenComplete { _ in withExtendedLifetime(connection) {} } }
            throw StoreUnavailable(.unreachable, detail: "the store is closed")
        }
        return try connecting.wait()
    }
}
