import PostgresNIO
import RoutemapDomain

/// How the store reads an error from PostgreSQL or from the connection to it.
enum DatabaseFailure {
    /// The transaction collided with a concurrent one and was rolled back by the server: a
    /// serialization failure (40001), a deadlock (40P01), or a unique violation (23505) of a key
    /// a concurrent transaction inserted after this one looked for it (``concurrentlyInserted``).
    /// Running the whole transaction again sees that transaction's effect.
    case conflict
    /// The connection broke or the server is not accepting work (shutting down, starting up,
    /// out of connections, or read-only: a standby, or a primary being demoted during a
    /// failover): what was sent may or may not have run. The connection is closed, so the next
    /// one is made anew (to the new primary, after a failover).
    case unreachable
    /// The server gave up on a statement and rolled its transaction back, the connection still
    /// good: a lock not granted within `lock_timeout` (55P03, which a managed database may set),
    /// or a statement cancelled (57014: past `statement_timeout`, which the store sets under
    /// its own limit, or by an operator). Not run again: it already took its time.
    case timedOut
    /// Anything else: a bug, a constraint the domain should have checked, a bad row.
    case other

    /// SQLSTATE classes and codes that mean the server cannot serve now: connection exceptions
    /// (08), operator intervention (57: admin or crash shutdown, cannot connect now), too many
    /// connections (53300), and a write refused by a read-only server (25006).
    private static let unreachableStates: Set<String> = ["57P01", "57P02", "57P03", "53300", "25006"]
    /// The codes of ``timedOut``: lock_not_available and query_canceled.
    private static let timedOutStates: Set<String> = ["55P03", "57014"]

    /// Unique keys two transactions can each insert without seeing the other's row: the same
    /// next menu position taken twice, the same new menu item or category id (creating one
    /// checks the id is free without a lock: run again, the loser sees the row and answers
    /// `menu_item_exists` or `menu_category_exists`), and the same idempotency key (which its
    /// lock should already prevent). Any other unique violation is a bug, not a collision, and
    /// is not retried.
    private static let concurrentlyInserted: Set<String> = [
        "idempotency_keys_pkey", "menu_items_position_key", "menu_categories_position_key", "menu_items_pkey", "menu_categories_pkey",
    ]

    init(_ error: any Error) {
        switch error {
        case is ConflictSignal:
            self = .conflict
        case is StoreUnavailable, is ConnectionLost, is DatabaseMissing:
            self = .unreachable
        case let error as PSQLError:
            switch error.code {
            case .server:
                let state = error.serverInfo?[.sqlState] ?? ""
                if ["40001", "40P01"].contains(state)
                    || (state == "23505" && Self.concurrentlyInserted.contains(error.serverInfo?[.constraintName] ?? ""))
                {
                    self = .conflict
                } else if state.hasPrefix("08") || Self.unreachableStates.contains(state) {
                    self = .unreachable
                } else if Self.timedOutStates.contains(state) {
                    self = .timedOut
                } else {
                    self = .other
                }
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
                .messageDecodingFailure, .unexpectedBackendMessage:
                self = .unreachable
            default:
                self = .other
            }
        default:
            self = .other
        }
    }
}

/// Thrown inside a transaction that must be run again from the start (see
/// ``DatabaseFailure/conflict``), when the store itself notices the collision.
struct ConflictSignal: Error, CustomStringConvertible {
    let description: String
}

/// The connection broke while a statement was sent or awaited.
struct ConnectionLost: Error, CustomStringConvertible {
    let underlying: any Error
    var description: String { "the connection to PostgreSQL was lost: \(underlying)" }
}

/// The server answered that the database named in the URL does not exist (SQLSTATE 3D000,
/// invalid_catalog_name). Opening a store reports it as ``StorageError/cannotOpen(path:underlying:)``
/// (a command exits 66, as for a missing SQLite file), not as unavailable: waiting will not make
/// it. A node already serving (the database dropped under it) answers 503, as for any outage.
public struct DatabaseMissing: Error, CustomStringConvertible {
    static let sqlState = "3D000"
    public let database: String
    public var description: String { "the server has no database named \"\(database)\" (create it first: routemap creates its tables, not the database)" }
}
