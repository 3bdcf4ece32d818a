import NIOCore
import Synchronization

/// The statements prepared on one connection (``Session/rows(prepared:)``,
/// ``Session/enqueue(prepared:check:)``), and where the tasks that run them run.
///
/// postgres-nio prepares a statement on a connection the first time it runs there, and keeps a
/// failed preparation's error as the statement's answer for as long as the connection lives. So
/// a statement's first run on a connection goes with nothing ahead of it that may fail, and a
/// statement whose first run failed (its preparation, or only its run: a lock timeout, a
/// deadlock) is never run prepared on that connection again: it goes unprepared there, which
/// works either way.
final class PreparedStatements: Sendable {
    /// What ``Session`` does with a statement on this connection.
    enum Use {
        /// Run it prepared; it is not yet, so its first run goes alone.
        case prepare
        /// Run it prepared.
        case prepared
        /// Run it unprepared: its first run here failed.
        case unprepared
    }

    private let names = Mutex<(prepared: Set<String>, refused: Set<String>)>(([], []))
    /// The connection's event loop, as the executor of the tasks that run its statements.
    let executor: EventLoopTaskExecutor

    init(eventLoop: any EventLoop) {
        executor = EventLoopTaskExecutor(eventLoop: eventLoop)
    }

    func use(of name: String) -> Use {
        names.withLock { names in
            names.prepared.contains(name) ? .prepared : names.refused.contains(name) ? .unprepared : .prepare
        }
    }

    /// Records the outcome of `name`'s first run.
    func firstRun(of name: String, succeeded: Bool) {
        _ = names.withLock { names in succeeded ? names.prepared.insert(name) : names.refused.insert(name) }
    }
}

/// Runs a task's jobs on a connection's event loop.
///
/// postgres-nio runs prepared statements from async code only, and the store's thread waits for
/// the task that runs one. The task starts on that thread (`Task.immediate`), which sends the
/// statement before it first suspends, and is resumed by the event loop when the answer is in:
/// on the event loop it collects the rows and hands them over, with no other thread woken on the
/// way. Never Swift's cooperative pool: the thread waiting for the task may be one of the pool's,
/// and with every pool thread waiting the task would never run. The event loop never waits for
/// the store, so it is always free to.
final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
