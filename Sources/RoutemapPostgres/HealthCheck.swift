import Dispatch
import Logging
import PostgresNIO
import RoutemapDomain
import Synchronization

/// The connection `GET /healthz` asks the database on, of its own: never one of the pool's.
///
/// A health check answers whether the database answers and takes writes, not whether this node
/// has a connection free. When writes waiting on one locked bill hold every pool connection, a
/// check queued behind them would time out and a load balancer would take a node out of
/// rotation that can serve every other bill (and, the same lock seen by every node, all the
/// nodes at once). So the check has one connection, made on demand, replaced when it broke,
/// and checks run one at a time on it, each waiting at most ``timeout``.
final class HealthCheck: Sendable {
    private let configuration: PostgresConnection.Configuration
    private let eventLoops: any EventLoopGroup
    private let logger: Logger
    /// One check at a time on the one connection.
    private let turn = DispatchSemaphore(value: 1)
    private let state = Mutex<(connection: PostgresConnection?, closed: Bool)>((nil, false))

    /// How long a check waits for its turn, and then for its statement.
    static let timeout: Duration = .seconds(5)

    init(configuration: PostgresConnection.Configuration, eventLoops: any EventLoopGroup, logger: Logger) {
        self.configuration = configuration
        self.eventLoops = eventLoops
        self.logger = logger
    }

    /// Throws ``StoreUnavailable`` unless the database answers and takes writes (a read-only one,
    /// a standby or a primary being demoted, refuses every change). Blocks the calling thread.
    func check() throws {
        guard turn.wait(timeout: .now() + .nanoseconds(Int(Self.timeout.nanoseconds))) == .success else {
            throw StoreUnavailable(.contention, detail: "the previous health check has not finished")
        }
        defer { turn.signal() }
        let connection = try self.connection()
        let session = Session(connection: connection, logger: logger, timeout: Self.timeout)
        let readOnly: Bool?
        do {
            readOnly = try session.rows("SELECT current_setting('transaction_read_only') = 'on'").first?.decode(Bool.self)
        } catch {
            drop(connection)
            throw StoreUnavailable(.unreachable, detail: "checking the database answers: \(Described(error))")
        }
        guard readOnly == false else {
            // The next check connects anew: to the new primary, after a failover.
            drop(connection)
            throw StoreUnavailable(.unreachable, detail: "the database server is read-only (a standby, or a primary being demoted)")
        }
    }

    /// Closes the connection; checks asked for afterwards fail.
    func close() {
        let connection = state.withLock { state in
            state.closed = true
            defer { state.connection = nil }
            return state.connection
        }
        if let connection { _ = try? connection.close().wait() }
    }

    /// The open connection, else a new one with the store's server-side limits.
    private func connection() throws -> PostgresConnection {
        let (existing, closed) = state.withLock { ($0.connection, $0.closed) }
        guard !closed else { throw StoreUnavailable(.unreachable, detail: "the store is closed") }
        if let existing, !existing.isClosed { return existing }
        let made: PostgresConnection
        do {
            made = try PostgresConnection.connect(on: eventLoops.any(), configuration: configuration, id: -1, logger: logger).wait()
        } catch {
            throw StoreUnavailable(.unreachable, detail: "cannot connect: \(String(reflecting: error))")
        }
        do {
            try Session(connection: made, logger: logger, timeout: Self.timeout).rows(Session.settingServerTimeout(under: Self.timeout))
        } catch {
            drop(made)
            throw StoreUnavailable(.unreachable, detail: "cannot set up a new connection: \(Described(error))")
        }
        let kept = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.connection = made
            return true
        }
        guard kept else {
            drop(made)
            throw StoreUnavailable(.unreachable, detail: "the store is closed")
        }
        return made
    }

    /// Forgets `connection` and closes it.
    private func drop(_ connection: PostgresConnection) {
        state.withLock { state in
            if state.connection === connection { state.connection = nil }
        }
        // Kept until closed: postgres-nio asserts a connection is closed when it is freed.
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }
}
