/// The store cannot serve the request now, through no fault of the request: the database
/// server does not answer (down, restarting, unreachable) or refuses writes (read-only), a
/// transaction kept colliding with concurrent ones past its retries, or the server gave up on a
/// statement in time. Nothing was changed; the same request may be sent again
/// after ``retryAfterSeconds`` (a payment with the same `Idempotency-Key`).
public struct StoreUnavailable: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// No connection to the database server could be made or kept.
        case unreachable
        /// Serialization failures or deadlocks with concurrent transactions, past the retries.
        case contention
        /// The database server gave up on a statement: a lock held too long by another
        /// transaction, or a statement past the server's time limit.
        case timedOut
        /// The disk the database is on is full: writes fail until space is freed (reads go on).
        case diskFull
    }

    public let reason: Reason
    /// What failed, for the log (never shown to clients).
    public let detail: String
    /// How long a client should wait before trying again.
    public let retryAfterSeconds: Int

    public init(_ reason: Reason, detail: String, retryAfterSeconds: Int = 1) {
        self.reason = reason
        self.detail = detail
        self.retryAfterSeconds = retryAfterSeconds
    }

    public var description: String {
        switch reason {
        case .unreachable: "The database is unavailable: \(detail)"
        case .contention: "The database kept refusing a transaction for concurrent ones: \(detail)"
        case .timedOut: "The database gave up on a statement in time: \(detail)"
        case .diskFull: "The database's disk is full: \(detail)"
        }
    }
}
