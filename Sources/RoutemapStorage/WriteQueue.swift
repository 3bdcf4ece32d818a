import Dispatch
import Synchronization

/// Group commit: write transactions wait in a queue, and one writer runs all that are waiting
/// as one SQLite transaction with one commit (and, at FULL durability, one `fsync`), each in
/// its own savepoint so that one failing changes nothing of the others.
///
/// Callers `await` their transaction's commit without holding a thread, so every request that
/// writes while a commit is under way joins the next batch: the more arrive, the more each
/// commit carries. The writer is a serial dispatch queue (the SQLite calls block, so they stay
/// off Swift's cooperative threads); it runs only while there is work. A transaction's body is
/// synchronous, so it cannot start another write and wait for itself.
final class WriteQueue: Sendable {
    /// What the writer needs of a job, whatever its result type.
    protocol Job: AnyObject, Sendable {
        var needsFullSync: Bool { get }
        /// Set when the job's transaction did not commit.
        var failure: (any Error)? { get set }
        /// Runs the caller's body in `transaction`.
        func run(_ transaction: SQLiteTransaction) throws
        /// Hands the caller its result (or `failure`): called once, after the batch ended.
        func finish()
    }

    /// One caller's transaction and the continuation that waits for it.
    final class TypedJob<Result: Sendable>: Job, @unchecked Sendable {
        // @unchecked: the caller creates the job and hands it over through the queue's mutex;
        // from then on only the writer touches `result` and `failure`, one batch at a time,
        // until `finish` resumes the caller, which then sees nothing but the value passed.
        let needsFullSync: Bool
        var failure: (any Error)?
        private let body: @Sendable (SQLiteTransaction) throws -> Result
        private var result: Result?
        private let continuation: CheckedContinuation<Result, any Error>

        init(needsFullSync: Bool, body: @escaping @Sendable (SQLiteTransaction) throws -> Result, continuation: CheckedContinuation<Result, any Error>) {
            self.needsFullSync = needsFullSync
            self.body = body
            self.continuation = continuation
        }

        func run(_ transaction: SQLiteTransaction) throws {
            result = try body(transaction)
        }

        func finish() {
            if let failure {
                continuation.resume(throwing: failure)
            } else if let result {
                continuation.resume(returning: result)
            } else {
                // Unreachable: the writer runs every job it takes, and one that did not fail
                // has its result.
                continuation.resume(throwing: WriteNotRun())
            }
        }
    }

    /// A batch as the writer hands it to the code that runs it.
    struct Batch {
        let jobs: [any Job]
        var needsFullSync: Bool { jobs.contains { $0.needsFullSync } }
    }

    private struct State {
        var waiting: [any Job] = []
        var writerScheduled = false
    }

    /// The most transactions one commit takes; later arrivals wait for the next.
    let maxBatch: Int
    private let state = Mutex(State())
    private let writer = DispatchQueue(label: "routemap.sqlite-writer")
    /// Runs one batch: one transaction with each job in it, recording failures in the jobs.
    private let execute: @Sendable (Batch) -> Void
    /// Runs after each batch, once its callers are resumed: upkeep no caller should wait for.
    private let afterBatch: @Sendable () -> Void
    /// Batches run so far (each one SQLite transaction), for tests and diagnostics.
    let batchesRun = Atomic<Int>(0)
    /// Jobs run so far, for tests and diagnostics (with `batchesRun`: the mean batch size).
    let jobsRun = Atomic<Int>(0)

    init(maxBatch: Int = 256, execute: @escaping @Sendable (Batch) -> Void, afterBatch: @escaping @Sendable () -> Void = {}) {
        self.maxBatch = maxBatch
        self.execute = execute
        self.afterBatch = afterBatch
    }

    /// Queues `body` and returns its result once its transaction has committed, or throws
    /// what made it fail (its own error, or the batch's commit error).
    func perform<Result: Sendable>(needsFullSync: Bool, _ body: @escaping @Sendable (SQLiteTransaction) throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            enqueue(TypedJob(needsFullSync: needsFullSync, body: body, continuation: continuation))
        }
    }

    private func enqueue(_ job: any Job) {
        let schedule = state.withLock { state in
            state.waiting.append(job)
            guard !state.writerScheduled else { return false }
            state.writerScheduled = true
            return true
        }
        if schedule { writer.async { self.drain() } }
    }

    /// Runs batches until nothing waits.
    private func drain() {
        while true {
            let jobs: [any Job] = state.withLock { state in
                let taken = Array(state.waiting.prefix(maxBatch))
                state.waiting.removeFirst(taken.count)
                if taken.isEmpty { state.writerScheduled = false }
                return taken
            }
            guard !jobs.isEmpty else { return }
            execute(Batch(jobs: jobs))
            StorageMetrics.batchSize.record(jobs.count)
            batchesRun.add(1, ordering: .relaxed)
            jobsRun.add(jobs.count, ordering: .relaxed)
            for job in jobs { job.finish() }
            afterBatch()
        }
    }
}

/// A job that finished without running: cannot happen (see `TypedJob.finish`).
private struct WriteNotRun: Error {}
