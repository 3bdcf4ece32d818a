import Foundation
import Logging
import PostgresNIO
import RoutemapDomain
import RoutemapStorage
import Synchronization

/// The ``POSStore`` on a PostgreSQL database, for any number of routemap nodes at once: every
/// rule is decided by the database, nothing by what one process holds in memory.
///
/// - **Transactions are READ COMMITTED with explicit locks**: before a use case reads what it
///   decides on (a bill, a device's current bill, an idempotency key, a category), its
///   transaction locks it (`PostgresTransaction` lists the locks), so a concurrent transaction
///   deciding on the same thing, on any node, waits and then sees its effect: one payment per
///   bill, one current bill per device, one answer per idempotency key. SERIALIZABLE would need
///   no such list, but its predicate locks, at page and relation granularity, made transactions
///   on unrelated bills abort each other by the hundreds under load. A transaction the server
///   still refuses (deadlock 40P01, serialization failure 40001, a unique violation 23505 of a
///   key two transactions can both insert, a menu row changed meanwhile) runs again from the
///   start, up to ``maxAttempts`` times, after a short random pause; past that it fails with
///   ``StoreUnavailable`` (503).
/// - **Durability**: every commit waits for the WAL to be flushed (`synchronous_commit` on),
///   whatever the `durability` asked: an acknowledged change survives a crash of the database
///   server, and with a synchronous standby a failover. `normal` (bill edits) once committed
///   with it off, as SQLite's `NORMAL` skips a sync; that bought no throughput here (the cores
///   are the limit, and PostgreSQL's group commit shares flushes among the connections), and a
///   database stopped with `-m immediate` lost acknowledged checkouts (seen in the node tests:
///   the pay that followed was refused).
/// - **Reads** see every transaction committed before they began, by any node. A read's body
///   (``reading(_:)``) runs first against the bills this node read lately (``CheckedBillCache``);
///   it answers from them only once one statement, shared by the reads waiting at that moment,
///   has confirmed that their versions are still the latest. Otherwise, and for every other
///   read, each read is a statement of its own (a bill with its lines is one query).
/// - **Threads**: the domain's transaction bodies and reads are synchronous; they run on the
///   store's own threads (one per connection), which block on the network. ``write(durability:_:)``
///   and ``reading(_:)`` hand work to them and suspend meanwhile, so no HTTP worker or cooperative
///   thread waits on the database. A read called from any other thread runs there, blocking it.
/// - **Connections**: at most `connections` (``ConnectionPool``), made on demand and replaced
///   when the server closed them (a restart): the store reconnects by itself. While the server
///   cannot be reached, calls fail at once with ``StoreUnavailable`` (`unreachable`). Two more
///   of their own: the bill cache's version check and the health check (``HealthCheck``).
public final class PostgresStore: POSStore {
    /// The database, without its password.
    public let url: DatabaseURL
    /// The migrations this store applied when it opened the database, in order.
    public let appliedMigrationIDs: [String]
    /// How many times a transaction runs before a conflict with concurrent ones is reported.
    public static let maxAttempts = 10

    private let eventLoops: MultiThreadedEventLoopGroup
    private let threads: NIOThreadPool
    private let pool: ConnectionPool
    private let logger: Logger
    /// The transaction (or read session) the current thread works in, while it runs a
    /// transaction body or a `read` body: reads made meanwhile go through it.
    private let bound = ThreadSpecificVariable<PostgresTransaction>()
    /// The bills this node read lately, and the run of a read's body against them (bound to
    /// the thread that runs the body, while it runs).
    private let recentBills = CheckedBillCache(capacity: 4096)
    private let cachedRun = ThreadSpecificVariable<CachedRun>()
    private let versionCheck: VersionCheck
    /// `ping`'s connection, of its own (``HealthCheck``).
    private let health: HealthCheck
    private let readsConfirmed = Atomic<Int>(0)
    private let readsOutOfDate = Atomic<Int>(0)
    /// When the last "database unavailable" warning was logged (monotonic nanoseconds).
    private let lastWarning = Mutex<UInt64>(0)

    /// Connects to the database at `url` and applies the `migrations` it has not applied yet
    /// (under an advisory lock, so nodes starting together apply each once).
    ///
    /// Throws ``StorageError/unknownMigrations(_:)``, changing nothing, when the database has
    /// applied migrations that are not in `migrations` (a newer binary migrated it), and
    /// ``StoreUnavailable`` when the server cannot be reached.
    /// - Parameter connections: the most connections (and store threads) this store uses.
    public convenience init(url: DatabaseURL, migrations: [Migration], connections: Int = 8, logger: Logger = Logger(label: "routemap.postgres"))
        throws
    {
        try self.init(url: url, migrations: migrations, connections: connections, statementTimeout: nil, logger: logger)
    }

    /// A store whose statements may take `statementTimeout` before their connection is given up
    /// as dead (and the server's `statement_timeout` a little under it): ten seconds (`nil`),
    /// unless a test shortens it. Migrations take as long as they take.
    /// - Parameter versionCheckDeadline: how long the bill cache's version check may take before
    ///   a read goes to the database instead; `nil` for the default (six seconds). Tests of the
    ///   cache itself lengthen it, so that a machine too busy to answer in time does not turn a
    ///   hit they count into a read of the database.
    package init(
        url: DatabaseURL, migrations: [Migration], connections: Int, statementTimeout: Duration? = nil,
        versionCheckDeadline: Duration? = nil, logger: Logger
    ) throws {
        self.url = url
        self.logger = logger
        StorageMetrics.register()
        CachedReadMetrics.register()
        eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let configuration: PostgresConnection.Configuration
        do {
            guard connections >= 1 else { throw InvariantViolation("a store needs at least one connection, not \(connections)") }
            configuration = try url.connectionConfiguration()
        } catch {
            try? eventLoops.syncShutdownGracefully()
            throw StorageError.cannotOpen(path: url.description, underlying: error)
        }
        pool = ConnectionPool(
            configuration: configuration, capacity: connections, eventLoops: eventLoops, logger: logger, statementTimeout: statementTimeout ?? Session.defaultTimeout)
        versionCheck = VersionCheck(
            configuration: configuration, eventLoops: eventLoops, logger: logger, deadline: versionCheckDeadline ?? VersionCheck.defaultDeadline,
            reconnected: { [recentBills] in recentBills.forgetAll() })
        health = HealthCheck(configuration: configuration, eventLoops: eventLoops, logger: logger)
        threads = NIOThreadPool(numberOfThreads: connections)
        threads.start()
        do {
            appliedMigrationIDs = try Self.withSession(pool, logger) { try Self.apply(migrations, on: $0) }
        } catch {
            health.close()
            pool.close()
            try? threads.syncShutdownGracefully()
            try? eventLoops.syncShutdownGracefully()
            if error is DatabaseMissing { throw StorageError.cannotOpen(path: url.description, underlying: error) }
            throw error
        }
    }

    /// Applies the database's pending `migrations` and returns their ids: `routemap migrate`.
    public static func migrate(url: DatabaseURL, migrations: [Migration]) throws -> [String] {
        let store = try PostgresStore(url: url, migrations: migrations, connections: 1)
        store.close()
        return store.appliedMigrationIDs
    }

    /// The ids of the `migrations` the database has not applied, in order, changing nothing:
    /// `routemap migrate --dry-run`. Throws ``StorageError/unknownMigrations(_:)`` as opening would.
    public static func pendingMigrations(url: DatabaseURL, migrations: [Migration]) throws -> [String] {
        let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? eventLoops.syncShutdownGracefully() }
        let logger = Logger(label: "routemap.postgres")
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try url.connectionConfiguration()
        } catch {
            throw StorageError.cannotOpen(path: url.description, underlying: error)
        }
        let pool = ConnectionPool(configuration: configuration, capacity: 1, eventLoops: eventLoops, logger: logger)
        defer { pool.close() }
        do {
            return try withSession(pool, logger) { try Self.pendingMigrations(migrations, on: $0) }
        } catch let error as DatabaseMissing {
            throw StorageError.cannotOpen(path: url.description, underlying: error)
        }
    }

    /// Stops the store's threads and closes its connections. Do not use the store afterwards.
    public func close() {
        interrupt()
        try? threads.syncShutdownGracefully()
        try? eventLoops.syncShutdownGracefully()
    }

    /// Closes every connection, the leased ones too, and refuses new ones: a thread waiting on
    /// a database that hangs (a statement, a connect) returns at once, instead of holding a stop
    /// up for the statement limit (10 s) and then a reconnection's connect timeout (5 s). Every
    /// call afterwards fails with ``StoreUnavailable``; ``close()`` still has to be called.
    public func interrupt() {
        pool.close()
        versionCheck.close()
        health.close()
    }

    // MARK: POSStore

    public var readsAreImmediate: Bool { false }

    public func reading<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        if let confirmed = await readConfirmed(body) { return try confirmed.get() }
        return try await onStoreThread { try self.runRead(body) }
    }

    /// What `body` gives from the bills this node read lately, once a version check confirmed
    /// that they are still the latest; `nil` when the cache could not answer every read of
    /// `body`, or the check found one out of date (or could not be made).
    private func readConfirmed<T: Sendable>(_ body: () throws -> T) async -> Result<T, any Error>? {
        let (outcome, run) = runAgainstCache(body)
        let used = run.used
        guard !run.missed, !used.isEmpty else {
            CachedReadMetrics.notCached.increment()
            return nil
        }
        guard let latest = await versionCheck.latest(for: used) else { return nil }
        // Out of date: a version moved, or the check reconnected since the run began (what the
        // run used may be of another history, though its versions match).
        guard run.generation == recentBills.generation, used.areStill(latest) else {
            readsOutOfDate.add(1, ordering: .relaxed)
            CachedReadMetrics.outOfDate.increment()
            recentBills.forget(
                bills: used.bills.filter { latest.bills[$0.key] != $0.value }.keys,
                devices: used.current.filter { latest.current[$0.key] != $0.value }.keys)
            return nil
        }
        readsConfirmed.add(1, ordering: .relaxed)
        CachedReadMetrics.confirmed.increment()
        return outcome
    }

    /// How many times the database may have gone back in time: each time the bill cache's
    /// version check had to connect again (a failover, a restart, a restore).
    public var history: Int { recentBills.generation }

    /// How many reads this store's bill cache answered, once confirmed, and how many it sent
    /// to the database because a version they used had moved (for the tests; `/metrics` has
    /// every outcome, of every store).
    package var cachedReads: (confirmed: Int, outOfDate: Int) {
        (readsConfirmed.load(ordering: .relaxed), readsOutOfDate.load(ordering: .relaxed))
    }

    /// Runs `body` on this thread with its bill reads answered by the cache (see ``CachedRun``).
    private func runAgainstCache<T>(_ body: () throws -> T) -> (Result<T, any Error>, CachedRun) {
        let run = CachedRun(cache: recentBills)
        cachedRun.currentValue = run
        defer { cachedRun.currentValue = nil }
        return (Result { try body() }, run)
    }

    public func write<T: Sendable>(durability: Durability, _ body: @escaping @Sendable (any POSTransaction) throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await onStoreThread { try self.transaction(body) }
            } catch let error as CommitOutcomeUnknown {
                throw unavailable(StoreUnavailable(.unreachable, detail: error.description))
            } catch {
                switch DatabaseFailure(error) {
                case .conflict where attempt < Self.maxAttempts:
                    // Pause a random while, longer each time, so colliding transactions spread out.
                    try await Task.sleep(for: .microseconds(Int.random(in: 0...(500 * attempt))))
                    attempt += 1
                case .conflict:
                    throw unavailable(StoreUnavailable(.contention, detail: "\(Self.maxAttempts) attempts: \(Described(error))"))
                case .unreachable where error is ConnectionLost && attempt == 1:
                    // The connection died before the commit was sent (the server restarted while
                    // it sat idle): nothing was committed, so once more on a new connection.
                    attempt += 1
                case .unreachable:
                    throw unavailable((error as? StoreUnavailable) ?? StoreUnavailable(.unreachable, detail: "\(Described(error))"))
                case .timedOut:
                    // Rolled back on a connection still good, which goes back to the pool.
                    throw unavailable(StoreUnavailable(.timedOut, detail: "a write transaction: \(Described(error))"))
                case .other:
                    if error is PSQLError {
                        StorageMetrics.databaseErrors.increment()
                        throw StorageError.database(operation: "a write transaction", underlying: Described(error))
                    }
                    throw error
                }
            }
        }
    }

    public func menuItems() throws -> [MenuItem] {
        try reading("reading the menu") { try $0.menuItems() }
    }

    public func menuCategories() throws -> [MenuCategory] {
        try reading("reading the menu's categories") { try $0.menuCategories() }
    }

    public func menuRevision() throws -> Int {
        try reading("reading the menu revision") { try $0.menuRevision() }
    }

    public func bill(id: String) throws -> Bill? {
        if let run = cachedRun.currentValue { return try run.bill(id: id) }
        let bill = try reading("reading bill \(id)") { try $0.bill(id: id) }
        if let bill, bound.currentValue?.isTransaction != true { recentBills.remember(bill) }
        return bill
    }

    public func currentBill(deviceId: String) throws -> Bill? {
        if let run = cachedRun.currentValue { return try run.currentBill(of: deviceId) }
        let bill = try reading("reading the current bill") { try $0.currentBill(deviceId: deviceId) }
        if bound.currentValue?.isTransaction != true { recentBills.remember(current: bill, of: deviceId) }
        return bill
    }

    public func unsettledBills(deviceId: String, statuses: Set<BillStatus>, after cursor: BillCursor?, limit: Int) throws -> [Bill] {
        try reading("listing bills") { try $0.unsettledBills(deviceId: deviceId, statuses: statuses, after: cursor, limit: limit) }
    }

    public func payment(id: String) throws -> Payment? {
        try reading("reading a payment") { try $0.payment(id: id) }
    }

    public func device(tokenDigest: [UInt8]) throws -> Device? {
        try reading("looking up a device token") { try $0.device(tokenDigest: tokenDigest) }
    }

    public func devices() throws -> [Device] {
        try reading("listing devices") { try $0.devices() }
    }

    public func device(nextTokenDigest: [UInt8]) throws -> Device? {
        try reading("looking up a rotated device token") { try $0.device(nextTokenDigest: nextTokenDigest) }
    }

    public func deviceRevision() throws -> Int {
        try reading("reading the device revision") { try $0.deviceRevision() }
    }

    /// Throws unless the database answers and takes writes: a server that became read-only (a
    /// standby, or a primary being demoted during a failover) refuses every change, so the node
    /// is unhealthy. Asked on a connection of its own (``HealthCheck``), never queued behind the
    /// requests holding the pool's, on the calling thread (not one of the store's, which may all
    /// be waiting on a locked bill).
    public func ping() throws {
        // In a read's run against the bill cache: not a bill read, so the read goes the usual way.
        if let run = cachedRun.currentValue { throw run.miss() }
        do {
            try health.check()
        } catch let error as StoreUnavailable {
            throw unavailable(error)
        }
    }

    /// How many bills are open and how many checked out (not yet paid), for metrics.
    public func unpaidBillCounts() throws -> (open: Int, checkedOut: Int) {
        try reading("counting unpaid bills") { transaction in
            var counts = (open: 0, checkedOut: 0)
            for row in try transaction.session.rows(
                "SELECT status, count(*) FROM bills WHERE status IN ('open', 'checked_out') GROUP BY status")
            {
                let (status, count) = try row.decode((String, Int).self)
                if status == "open" { counts.open = count } else { counts.checkedOut = count }
            }
            return counts
        }
    }

    // MARK: Helpers

    /// Counts `error` and logs it, at most once every 5 seconds (an outage fails every request).
    private func unavailable(_ error: StoreUnavailable) -> StoreUnavailable {
        StorageMetrics.databaseErrors.increment()
        let now = DispatchTime.now().uptimeNanoseconds
        let due = lastWarning.withLock { last in
            guard last == 0 || now - last >= 5_000_000_000 else { return false }
            last = now
            return true
        }
        if due { logger.warning("database unavailable: requests get 503 until it answers", metadata: ["error": "\(error)"]) }
        return error
    }

    /// Runs `body` on a session of its own (for diagnostics outside the domain's reads).
    func inspecting<T>(_ operation: @autoclosure () -> String, _ body: (Session) throws -> T) throws -> T {
        try reading(operation()) { try body($0.session) }
    }

    /// One transaction on a leased connection, bound to this thread while `body` runs.
    private func transaction<T>(_ body: (any POSTransaction) throws -> T) throws -> T {
        try withBoundSession(isTransaction: true) { transaction in
            let session = transaction.session
            session.enqueue("BEGIN")
            let value: T
            do {
                value = try body(transaction)
            } catch {
                session.rollback()
                throw error
            }
            // Checks the queued writes that need it first (rolling back if one fails); throws
            // `CommitOutcomeUnknown` itself when the commit's fate cannot be known.
            let outcome = try session.commit()
            // A transaction that had failed is rolled back by COMMIT: run it again.
            guard outcome == "COMMIT" else { throw ConflictSignal(description: "the server rolled the transaction back at commit") }
            // A read of them next (the answer's read-back, a launch) needs no query of its own.
            for bill in transaction.writtenBills { recentBills.remember(bill) }
            return value
        }
    }

    /// Runs `body`'s reads: through the transaction or read this thread works in, else on a
    /// connection leased for it (once more on a new one if that one turns out dead).
    func reading<T>(_ operation: @autoclosure () -> String, _ body: (PostgresTransaction) throws -> T) throws -> T {
        // A read the bill cache cannot answer, in a read's run against it: the read goes the usual way.
        if let run = cachedRun.currentValue { throw run.miss() }
        do {
            if let transaction = bound.currentValue { return try body(transaction) }
            return try onLeasedSession(body)
        } catch {
            // Inside a transaction or a read the error goes out as it is: `write` retries
            // conflicts, and both report what is left.
            if bound.currentValue != nil { throw error }
            throw reported(error, operation())
        }
    }

    /// What a caller gets for `error` from a read: ``StoreUnavailable`` when the server cannot
    /// be reached, ``StorageError/database(operation:underlying:)`` for the server's errors.
    private func reported(_ error: any Error, _ operation: String) -> any Error {
        switch DatabaseFailure(error) {
        case .unreachable:
            return unavailable((error as? StoreUnavailable) ?? StoreUnavailable(.unreachable, detail: "\(operation): \(Described(error))"))
        case .timedOut:
            return unavailable(StoreUnavailable(.timedOut, detail: "\(operation): \(Described(error))"))
        case .conflict, .other:
            guard error is PSQLError else { return error }
            StorageMetrics.databaseErrors.increment()
            return StorageError.database(operation: operation, underlying: Described(error))
        }
    }

    /// A `reading` body, with its reads on one leased connection.
    private func runRead<T>(_ body: () throws -> T) throws -> T {
        do {
            return try onLeasedSession { _ in try body() }
        } catch {
            throw reported(error, "reading")
        }
    }

    /// `body` on a session of a leased connection, bound to this thread; once more on a new
    /// connection if that one turns out dead (a server restarted while it sat idle).
    private func onLeasedSession<T>(_ body: (PostgresTransaction) throws -> T) throws -> T {
        do {
            return try withBoundSession(body)
        } catch is ConnectionLost {
            return try withBoundSession(body)
        }
    }

    /// Leases a connection, binds a session on it to this thread while `body` runs, then gives
    /// it back (closed if it broke).
    private func withBoundSession<T>(isTransaction: Bool = false, _ body: (PostgresTransaction) throws -> T) throws -> T {
        let connection = try pool.lease()
        let transaction = PostgresTransaction(
            session: Session(
                connection: connection, logger: logger, timeout: pool.statementTimeout, prepared: pool.preparedStatements(of: connection)),
            isTransaction: isTransaction)
        bound.currentValue = transaction
        defer {
            bound.currentValue = nil
            pool.release(connection, broken: transaction.session.isBroken)
        }
        return try body(transaction)
    }

    /// Runs `work` on one of the store's threads and suspends until it returns.
    private func onStoreThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await threads.runIfActive(work)
        } catch let error as NIOThreadPoolError.ThreadPoolInactive {
            throw StoreUnavailable(.unreachable, detail: "the store is closed (\(error))")
        }
    }

    /// Runs `body` with a session on a connection of `pool` (for migrations, before the store's threads run).
    private static func withSession<T>(_ pool: ConnectionPool, _ logger: Logger, _ body: (Session) throws -> T) throws -> T {
        let connection = try pool.lease()
        let session = Session(connection: connection, logger: logger, timeout: pool.statementTimeout)
        defer { pool.release(connection, broken: session.isBroken) }
        return try body(session)
    }
}

/// The connection broke while `COMMIT` was sent or awaited: the transaction may or may not
/// have committed, so it must not run again here. The client's retry (with its idempotency
/// key) finds out.
struct CommitOutcomeUnknown: Error, CustomStringConvertible {
    let underlying: ConnectionLost
    var description: String { "the connection broke during COMMIT: \(underlying)" }
}
