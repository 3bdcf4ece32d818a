import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Group commit: write transactions that arrive while another is running wait together, then
/// run as one SQLite transaction with one commit (and, at FULL durability, one `fsync`), each in
/// its own savepoint so that one failing changes nothing of the others.
///
/// There is no writer thread: the first caller to find the queue idle becomes the leader and
/// runs what has queued up, on its own thread; when its batch is done it hands the lead to the
/// first caller still waiting and returns. Callers block until their transaction has committed
/// or failed, so a handler's answer always follows its commit.
final class WriteQueue: Sendable {
    /// One caller's transaction, waiting for a leader to run it.
    final class Job: @unchecked Sendable {
        // @unchecked: `body` and `failure` are used only by the leader that holds the job's
        // batch, before it signals `done`; the caller reads `failure` only after `done.wait()`
        // returns (the leader's own job: on the same thread). `role` is read and written only
        // inside the queue's mutex. So no two threads touch a field at the same time.
        enum Role { case waiting, lead, finished }

        /// Runs the caller's body in the transaction the leader provides; `nil` once the batch
        /// is over, so nothing holds the caller's closure after the caller returns.
        private(set) var body: ((SQLiteTransaction) throws -> Void)?
        let needsFullSync: Bool
        /// Set when the job's transaction did not commit.
        var failure: (any Error)?
        var role = Role.waiting
        let done = DispatchSemaphore(value: 0)

        init(needsFullSync: Bool, run: @escaping (SQLiteTransaction) throws -> Void) {
            self.needsFullSync = needsFullSync
            self.body = run
        }

        /// Runs the caller's body in `transaction`.
        func run(_ transaction: SQLiteTransaction) throws {
            try body?(transaction)
        }

        /// Drops the caller's body: called by the leader before it wakes the caller.
        func finish() {
            body = nil
            role = .finished
        }
    }

    /// What the leader hands to the code that runs a batch.
    struct Batch {
        let jobs: [Job]
        var needsFullSync: Bool { jobs.contains { $0.needsFullSync } }
    }

    private struct State {
        var waiting: [Job] = []
        var leaderActive = false
        /// The thread running a batch, to refuse a write started from inside one.
        var leaderThread: pthread_t?
    }

    /// The most transactions one commit takes; later arrivals wait for the next.
    let maxBatch: Int
    private let state = Mutex(State())
    /// Batches run so far (each one SQLite transaction), for tests and diagnostics.
    let batchesRun = Atomic<Int>(0)

    init(maxBatch: Int = 64) {
        self.maxBatch = maxBatch
    }

    /// Queues `job` and returns once it has run (committed, or failed with `job.failure`).
    /// `execute` runs a batch: one transaction with each job in it, recording failures in the
    /// jobs; every caller passes the same one.
    func perform(_ job: Job, execute: (Batch) -> Void) {
        let leads = state.withLock { state in
            // A write inside a write would wait for its own batch forever.
            precondition(
                state.leaderThread.map { pthread_equal($0, pthread_self()) == 0 } ?? true,
                "SQLiteStore.write called inside a write transaction: writes are not reentrant")
            state.waiting.append(job)
            guard !state.leaderActive else { return false }
            state.leaderActive = true
            state.waiting.removeLast()
            job.role = .lead
            return true
        }
        if !leads {
            job.done.wait()
            // Woken either because a leader ran the job, or to lead the next batch.
            guard state.withLock({ _ in job.role == .lead }) else { return }
        }
        lead(with: job, execute: execute)
    }

    /// Runs the batch led by `leader` (the leader's job plus those waiting), then passes the
    /// lead on to the next waiting job, if any.
    private func lead(with leader: Job, execute: (Batch) -> Void) {
        let others = state.withLock { state in
            state.leaderThread = pthread_self()
            let taken = Array(state.waiting.prefix(maxBatch - 1))
            state.waiting.removeFirst(taken.count)
            return taken
        }
        execute(Batch(jobs: [leader] + others))
        batchesRun.add(1, ordering: .relaxed)
        let next: Job? = state.withLock { state in
            state.leaderThread = nil
            for job in others { job.finish() }
            leader.finish()
            guard !state.waiting.isEmpty else {
                state.leaderActive = false
                return nil
            }
            let next = state.waiting.removeFirst()
            next.role = .lead
            return next
        }
        for job in others { job.done.signal() }
        next?.done.signal()
    }
}
