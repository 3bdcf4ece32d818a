import Dispatch
import GRDB
import GRDBSQLite
import Synchronization

/// Copies the write-ahead log into the database file on a connection and a thread of its own,
/// so that writes rarely wait for it.
///
/// SQLite's automatic checkpoint runs on the connection that commits, right after its commit:
/// the writer copies the whole log and syncs both files while every write waits behind it
/// (measured under a steady add-item load: about 70 ms, once a second, which set the p99).
/// Here the writer only notes how many pages the log holds after each commit
/// (`sqlite3_wal_hook`, which also turns the automatic checkpoint off) and looks at that number
/// once the batch's callers have their answers. Past `pagesPerCheckpoint`, a pass on this
/// object's own connection copies what the log holds (`PASSIVE`: it blocks neither the writer
/// nor the readers), copies again while the writer added more than a few pages meanwhile, and
/// syncs the database file.
///
/// The log starts over from its beginning only once every page in it has been copied, and the
/// writer adds pages while a pass runs; so after each pass (even one that failed), the writer
/// copies what is left itself, after its next batch: a short stop instead of the whole copy.
final class LogCheckpointer: Sendable {
    /// What the writer does after a batch.
    private enum Step {
        case nothing
        case startPass
        case copyOnWriter
    }

    /// Where the background copy is.
    private enum Pass {
        case idle
        case running
        /// Finished since the writer last copied: the writer copies the rest.
        case finished
    }

    private struct State {
        var pass = Pass.idle
        var closed = false
    }

    /// Log pages that start a background pass.
    let pagesPerCheckpoint: Int
    /// A pass copies again while the writer has added more pages than this since it began.
    private var pagesLeftToWriter: Int { max(pagesPerCheckpoint / 50, 16) }
    private static let maxCopiesPerPass = 4
    /// Background passes run so far (for tests and diagnostics).
    let passesRun = Atomic<Int>(0)
    /// Whether a background pass is copying now (for tests, which pace their writes by it).
    var passIsRunning: Bool { state.withLock { $0.pass == .running } }
    /// Checkpoints the writer ran itself, each after a pass (for tests and diagnostics).
    let writerCheckpoints = Atomic<Int>(0)
    /// The log's length in pages after the writer's last commit, as the hook reported it.
    private let logPages = Atomic<Int>(0)
    private let state = Mutex(State())
    /// The store's connections: its writer is the one that reports, and copies what a pass left.
    private let pool: DatabasePool
    /// The connection the passes copy on.
    private let connection: DatabaseQueue
    private let thread = DispatchQueue(label: "routemap.sqlite-checkpointer")

    /// Opens the checkpointing connection to the database at `path`, configured as the store's
    /// own connections (`configuration`). Nothing is checkpointed before ``start()``.
    init(pool: DatabasePool, path: String, configuration: Configuration, pagesPerCheckpoint: Int) throws {
        var configuration = configuration
        configuration.label = "routemap.checkpointer"
        self.connection = try DatabaseQueue(path: path, configuration: configuration)
        self.pool = pool
        self.pagesPerCheckpoint = pagesPerCheckpoint
    }

    /// Makes the writer report its log's length to this object after each commit, instead of
    /// checkpointing by itself.
    ///
    /// The hook holds this object unretained. That is safe because only the store and its write
    /// queue (through its `afterBatch`) commit on the writer connection, both hold this object
    /// strongly, and the hook runs only inside a commit; ``close()`` removes it.
    func start() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        pool.writeWithoutTransaction { _ = sqlite3_wal_hook($0.sqliteConnection, logCommitted, context) }
    }

    /// Called by the hook, inside the writer's commit.
    fileprivate func noteLog(pages: Int) {
        logPages.store(pages, ordering: .relaxed)
    }

    /// The writer's turn, after each batch it wrote (its callers already answered): starts a
    /// background pass, copies the pages added during the last pass, or does nothing.
    func writerFinishedBatch() {
        let pages = logPages.load(ordering: .relaxed)
        StorageMetrics.walPages.record(pages)
        let step: Step = state.withLock { state in
            if state.closed || pages == 0 { return .nothing }
            switch state.pass {
            case .finished:
                state.pass = .idle
                return .copyOnWriter
            case .idle where pages >= pagesPerCheckpoint:
                state.pass = .running
                return .startPass
            case .idle, .running:
                return .nothing
            }
        }
        switch step {
        case .nothing:
            return
        case .startPass:
            thread.async { self.runPass() }
        case .copyOnWriter:
            do {
                _ = try pool.writeWithoutTransaction { try $0.checkpoint(.passive) }
                writerCheckpoints.add(1, ordering: .relaxed)
            } catch {
                // The commit stands; the next commit tries again.
                StorageMetrics.databaseErrors.increment()
            }
        }
    }

    private func runPass() {
        do {
            try connection.inDatabase { database in
                // Each copy takes a time in proportion to its pages, and the writer adds
                // pages meanwhile: copy again while what was added is more than a few, so that
                // the writer's own copy is short.
                for _ in 0..<Self.maxCopiesPerPass {
                    let copied = try database.checkpoint(.passive).checkpointedFrameCount
                    if logPages.load(ordering: .relaxed) - copied <= pagesLeftToWriter { break }
                }
                // A pass that ends short of the log's end (the writer added pages meanwhile)
                // leaves the pages it copied unsynced; the writer's copy would sync them all.
                // Syncing them here leaves the writer only its own few.
                try syncDatabaseFile(of: database)
            }
        } catch {
            StorageMetrics.databaseErrors.increment()
        }
        passesRun.add(1, ordering: .relaxed)
        state.withLock { $0.pass = .finished }
    }

    /// Starts no more passes, waits for the one under way, closes its connection and removes
    /// the writer's hook (the writer then no longer checkpoints at all: the store's `close`
    /// does, last).
    func close() throws {
        state.withLock { $0.closed = true }
        thread.sync {}
        try connection.close()
        pool.writeWithoutTransaction { _ = sqlite3_wal_hook($0.sqliteConnection, nil, nil) }
    }
}

/// Syncs the main database file of `database` through SQLite's own file handle (a descriptor of
/// our own on the file would drop SQLite's locks when closed).
private func syncDatabaseFile(of database: Database) throws {
    var file: UnsafeMutablePointer<sqlite3_file>?
    let found = withUnsafeMutablePointer(to: &file) { pointer in
        sqlite3_file_control(database.sqliteConnection, "main", SQLITE_FCNTL_FILE_POINTER, pointer)
    }
    guard found == SQLITE_OK, let file, let sync = file.pointee.pMethods?.pointee.xSync else { return }
    let result = sync(file, SQLITE_SYNC_NORMAL)
    guard result == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: result)) }
}

/// The `sqlite3_wal_hook` callback: hands the log's length to the ``LogCheckpointer`` it was
/// registered with.
private func logCommitted(
    _ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ schema: UnsafePointer<CChar>?, _ pages: Int32
) -> Int32 {
    if let context {
        Unmanaged<LogCheckpointer>.fromOpaque(context).takeUnretainedValue().noteLog(pages: Int(pages))
    }
    return SQLITE_OK
}
