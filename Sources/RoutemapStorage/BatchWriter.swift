import GRDB
import RoutemapDomain
import Synchronization

/// Runs the write queue's batches on the store's writer connection: one SQLite transaction
/// per batch, one savepoint per job, and the bill cache told what committed.
final class BatchWriter: Sendable {
    private let pool: DatabasePool
    private let cache: BillCache
    /// The menu by id, for the writes that look items up.
    private let menu: MenuCache
    /// The writer connection's `PRAGMA data_version` at its last write transaction.
    private let lastDataVersion = Atomic<Int>(-1)

    init(pool: DatabasePool, cache: BillCache, menu: MenuCache) {
        self.pool = pool
        self.cache = cache
        self.menu = menu
    }

    /// Runs a batch of write transactions as one SQLite transaction, recording in each job
    /// whether it failed; the bill cache learns what committed. The transaction statements are
    /// cached like the queries (GRDB's `inTransaction` compiles them anew each time).
    func execute(_ batch: WriteQueue.Batch) {
        do {
            try pool.writeWithoutTransaction { database in
                func run(_ sql: String) throws { try database.cachedStatement(sql: sql).execute() }
                let full = batch.needsFullSync
                if full { try run("PRAGMA synchronous = FULL") }
                defer { if full { try? run("PRAGMA synchronous = NORMAL") } }
                try run("BEGIN IMMEDIATE")
                let changes = BillChanges()
                do {
                    try forgetOthersWrites(database)
                    if batch.jobs.count == 1 {
                        let job = batch.jobs[0]
                        do {
                            try job.run(SQLiteTransaction(database: database, writing: writing(changes)))
                        } catch {
                            job.failure = error
                        }
                    } else {
                        for job in batch.jobs { try runInSavepoint(job, database, changes, run) }
                    }
                    guard batch.jobs.contains(where: { $0.failure == nil }) else {
                        try run("ROLLBACK")
                        return
                    }
                    try run("COMMIT")
                } catch {
                    if database.isInsideTransaction { try? run("ROLLBACK") }
                    throw error
                }
                // Committed: before the next write starts, the cache learns what committed.
                cache.apply(changes)
                if menu.items == nil {
                    // The batch's jobs are done whatever happens here: a menu that cannot be
                    // read stays unknown, and lookups read the table until a reload succeeds.
                    do { try menu.reload(from: database) } catch { StorageMetrics.databaseErrors.increment() }
                }
            }
        } catch {
            // Nothing of the batch committed.
            StorageMetrics.databaseErrors.increment()
            for job in batch.jobs where job.failure == nil { job.failure = error }
        }
    }

    /// Runs one job of a batch in a savepoint of its own: rolled back alone if it throws.
    private func runInSavepoint(
        _ job: any WriteQueue.Job, _ database: Database, _ changes: BillChanges, _ run: (String) throws -> Void
    ) throws {
        // An error that aborted the whole transaction fails the rest of the batch.
        guard database.isInsideTransaction else {
            job.failure = StorageError.database(operation: "a write transaction", underlying: DatabaseError(resultCode: .SQLITE_ABORT))
            return
        }
        try run("SAVEPOINT job")
        let own = BillChanges(parent: changes)
        do {
            try job.run(SQLiteTransaction(database: database, writing: writing(own)))
        } catch {
            job.failure = error
            if database.isInsideTransaction {
                try run("ROLLBACK TO job")
                try run("RELEASE job")
            }
            return
        }
        try run("RELEASE job")
        changes.absorb(own)
    }

    /// Empties the bill cache if another connection (another process, or another store on the
    /// same file) committed since this writer's last transaction: so writes always start from
    /// the committed state. Call it first thing in a write transaction.
    private func forgetOthersWrites(_ database: Database) throws {
        let version = try Int.fetchOne(database.cachedStatement(sql: "PRAGMA data_version")) ?? 0
        if lastDataVersion.exchange(version, ordering: .relaxed) != version {
            cache.removeAll()
            menu.forget()
        }
    }

    private func writing(_ changes: BillChanges) -> SQLiteTransaction.Writing {
        SQLiteTransaction.Writing(changes: changes, cache: cache, menu: menu)
    }
}
