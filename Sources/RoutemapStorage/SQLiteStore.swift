import Foundation
import GRDB
import RoutemapDomain
import Synchronization

/// The ``POSStore`` on one SQLite file, through a GRDB `DatabasePool`: WAL mode, so reads run
/// in parallel with each other and with the one writer.
///
/// Every connection has foreign keys on, a busy timeout and `synchronous = NORMAL` (a commit
/// survives a process crash; the last commits may be lost on power loss, in exchange for about
/// ten times the commit rate). The WAL is copied into the database file by a
/// ``LogCheckpointer``, off the writer. Write transactions start with `BEGIN IMMEDIATE`.
///
/// Recently used bills are kept in memory (``BillCache``), and the writer keeps the menu by id
/// for the writes that look items up (``MenuCache``), read again after each menu change. Every
/// write starts from the committed state, even when another process writes the same file (the
/// caches are dropped when `PRAGMA data_version` says so); reads outside a write may lag
/// another process's writes.
/// Run one `routemap serve` per database file.
public final class SQLiteStore: POSStore {
    /// The database file.
    public let path: String
    /// The migrations this store applied when it opened the file, in order (empty when the
    /// database was already up to date).
    public let appliedMigrationIDs: [String]
    let pool: DatabasePool
    let cache = BillCache()
    /// Group commit of every write.
    let writes: WriteQueue
    /// Copies the WAL into the database file, off the writer.
    let checkpointer: LogCheckpointer

    /// Opens (creating if missing) the database at `path` and applies the `migrations` it has
    /// not applied yet, in order, each in its own transaction, recording each.
    ///
    /// Throws ``StorageError/unknownMigrations(_:)``, changing nothing, when the database has
    /// applied migrations that are not in `migrations` (a newer binary migrated it).
    /// - Parameters:
    ///   - busyTimeout: how long a connection waits for another process's lock.
    ///   - pagesPerCheckpoint: the WAL's length, in pages, that starts a checkpoint. The default,
    ///     10,000 (40 MiB), not SQLite's 1,000: each checkpoint syncs the file, and a short WAL
    ///     is rewritten while the kernel still writes it back, which stalls commits (measured:
    ///     about 1.6 times the add-item rate, BENCHMARKS.md).
    public init(path: String, migrations: [Migration], busyTimeout: TimeInterval = 5, pagesPerCheckpoint: Int = 10_000) throws {
        var configuration = Configuration()
        configuration.label = "routemap"
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { database in
            try database.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        // Before the pool opens it, which would switch another program's file to WAL.
        try Self.refuseForeignDatabase(at: path, busyTimeout: busyTimeout)
        let pool: DatabasePool
        let checkpointer: LogCheckpointer
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            checkpointer = try LogCheckpointer(pool: pool, path: path, configuration: configuration, pagesPerCheckpoint: pagesPerCheckpoint)
        } catch {
            throw StorageError.cannotOpen(path: path, underlying: error)
        }
        self.path = path
        self.pool = pool
        self.checkpointer = checkpointer
        self.appliedMigrationIDs = try Self.apply(migrations, to: pool)
        checkpointer.start()
        let menu = MenuCache()
        try StorageError.wrapping("reading the menu") {
            try pool.read { try menu.reload(from: $0) }
        }
        let batches = BatchWriter(pool: pool, cache: cache, menu: menu)
        self.writes = WriteQueue(execute: batches.execute, afterBatch: checkpointer.writerFinishedBatch)
        StorageMetrics.register()
        _ = StorageMetrics.walPages  // SQLite's alone, shown from start-up
    }

    /// Opens the database at `path`, applies its pending `migrations`, checkpoints and closes it,
    /// and returns the ids of the migrations it applied: for `routemap migrate`.
    public static func migrate(path: String, migrations: [Migration]) throws -> [String] {
        let store = try SQLiteStore(path: path, migrations: migrations)
        try store.close()
        return store.appliedMigrationIDs
    }

    /// Checkpoints the write-ahead log into the database file (truncating the log) and closes
    /// every connection: the graceful end of the store. Do not use the store afterwards.
    public func close() throws {
        try StorageError.wrapping("checkpointing the write-ahead log") {
            try checkpointer.close()
            _ = try pool.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        }
        try StorageError.wrapping("closing the database") {
            try pool.close()
        }
    }

    // MARK: POSStore

    public func menuItems() throws -> [MenuItem] {
        try read("reading the menu") { try $0.menuItems() }
    }

    public func bill(id: String) throws -> Bill? {
        if let bill = cache.bill(id: id) { return bill }
        let generation = cache.generation
        let bill = try read("reading bill \(id)") { try $0.bill(id: id) }
        if let bill { cache.remember(.bill(bill), readAt: generation) }
        return bill
    }

    public func currentBill(deviceId: String) throws -> Bill? {
        if let known = cache.currentBill(deviceId: deviceId) { return known }
        let generation = cache.generation
        let bill = try read("reading the current bill") { try $0.currentBill(deviceId: deviceId) }
        cache.remember(.current(deviceId: deviceId, bill), readAt: generation)
        return bill
    }

    public func unsettledBills(deviceId: String, statuses: Set<BillStatus>, after cursor: BillCursor?, limit: Int) throws -> [Bill] {
        try read("listing bills") { try $0.unsettledBills(deviceId: deviceId, statuses: statuses, after: cursor, limit: limit) }
    }

    public func payment(id: String) throws -> Payment? {
        try read("reading a payment") { try $0.payment(id: id) }
    }

    public func device(tokenDigest: [UInt8]) throws -> Device? {
        try read("looking up a device token") { try $0.device(tokenDigest: tokenDigest) }
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction, committed if `body` returns and rolled
    /// back if it throws, and returns once it has committed. Transactions that arrive while
    /// another runs are committed together (``WriteQueue``), each in a savepoint of its own;
    /// `full` durability switches the writer to `synchronous = FULL` for the commit of its
    /// batch, then back to `NORMAL`. Errors from `body` come out unchanged; GRDB's own (begin,
    /// commit) come out as ``StorageError/database(operation:underlying:)``; a full disk or a
    /// lock another process held too long, from either, as ``StoreUnavailable`` (503 to a
    /// client, who may send the same request again).
    public func write<T: Sendable>(durability: Durability, _ body: @escaping @Sendable (any POSTransaction) throws -> T) async throws -> T {
        try await writeTransaction(durability: durability) { transaction in try body(transaction) }
    }

    /// ``write(durability:_:)`` with the transaction as it is, for the apps' own tables.
    func writeTransaction<T: Sendable>(durability: Durability, _ body: @escaping @Sendable (SQLiteTransaction) throws -> T) async throws -> T {
        do {
            return try await writes.perform(needsFullSync: durability == .full, body)
        } catch let error as DatabaseError {
            throw Self.unavailable(error, "a write transaction") ?? StorageError.database(operation: "a write transaction", underlying: error)
        } catch StorageError.database(let operation, let underlying as DatabaseError) {
            throw Self.unavailable(underlying, operation) ?? StorageError.database(operation: operation, underlying: underlying)
        }
    }

    /// SQLite's failures that are the operator's to fix or wait out, not a bug, after which the
    /// same request succeeds: a full disk (`diskFull`), and another process holding the
    /// database's lock past the busy timeout (`timedOut`: a `sqlite3` shell left in a
    /// transaction, say). `nil` for any other.
    private static func unavailable(_ error: DatabaseError, _ operation: String) -> StoreUnavailable? {
        switch error.resultCode {
        case .SQLITE_FULL:
            StoreUnavailable(.diskFull, detail: "\(operation): \(error)", retryAfterSeconds: 5)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            StoreUnavailable(.timedOut, detail: "\(operation): another connection held the lock past the busy timeout: \(error)")
        default:
            nil
        }
    }

    public func ping() throws {
        try read("checking the database answers") { transaction in
            _ = try Int.fetchOne(transaction.database, sql: "SELECT 1")
        }
    }

    // MARK: Helpers

    /// Runs `body` in a read transaction on one of the pool's reader connections.
    func read<T>(_ operation: @autoclosure () -> String, _ body: (SQLiteTransaction) throws -> T) throws -> T {
        try StorageError.wrapping(operation()) {
            try pool.read { database in try body(SQLiteTransaction(database: database)) }
        }
    }

    /// Runs `body` on the writer connection, outside any transaction. The bill cache is
    /// emptied afterwards: `body` may have changed anything.
    func onWriter<T>(_ operation: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
        defer { cache.removeAll() }
        return try StorageError.wrapping(operation()) {
            try pool.writeWithoutTransaction(body)
        }
    }
}
