import CMicroHTTPD
import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The requests whose handlers run in Swift concurrency while their connection is suspended in
/// libmicrohttpd (`MHD_suspend_connection`), and the one rule for resuming them: a connection
/// is resumed exactly once, with the first answer that arrives (the handler's, the timeout's,
/// or the shutdown's), and never after the daemon begins to stop.
///
/// libmicrohttpd neither times out suspended connections nor stops a daemon that has any, so
/// both are done here: a timer answers 503 `timed_out` for handlers that outlive the deadline
/// (the handler still runs to completion; its late answer is dropped), and `close` answers
/// whatever is left before the daemon stops. Which requests wait, and whether one was answered,
/// is decided under one lock; the libmicrohttpd calls that follow run outside it (a resume
/// wakes the daemon with a system call, and held under the lock it made every other suspend
/// and resume wait: a tenth of the server's CPU spun in that lock under an add-item load), but
/// `close` waits for those calls before it answers the rest, so a late handler can never
/// resume a connection the daemon already freed.
final class SuspendedRequests: Sendable {
    /// One suspended request.
    final class Suspension: Sendable {
        fileprivate let connection: Connection
        /// Monotonic nanoseconds after which the request is answered 503; 0 for never.
        fileprivate let deadline: Int64
        private let answer = Mutex<Answer?>(nil)
        /// Set once `MHD_suspend_connection` has returned: only then may the timer resume it.
        fileprivate let isSuspended = Atomic<Bool>(false)

        fileprivate init(connection: Connection, deadline: Int64) {
            self.connection = connection
            self.deadline = deadline
        }

        /// What to send, and who called when only the handler's work learnt it.
        struct Answer: Sendable {
            let response: Response
            let caller: String?
        }

        /// The answer to send, once the connection is resumed.
        func takeAnswer() -> Answer? {
            answer.withLock { answer in
                defer { answer = nil }
                return answer
            }
        }

        fileprivate func deliver(_ response: Response, caller: String?) {
            answer.withLock { $0 = Answer(response: response, caller: caller) }
        }
    }

    /// libmicrohttpd's connection.
    ///
    /// `@unchecked Sendable`: the pointer is only handed to `MHD_suspend_connection` and
    /// `MHD_resume_connection`. Each call is admitted under `state`'s lock, only while it is not
    /// `closed`, and made outside it, counted in `callsInFlight`; `close` sets `closed` and waits
    /// for that count to reach 0 before its own resumes and before `MHD_stop_daemon`, so no call
    /// reaches a freed connection. libmicrohttpd allows resuming from any thread.
    fileprivate struct Connection: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private struct State {
        var active: [ObjectIdentifier: Suspension] = [:]
        var closed = false
    }

    /// The most requests that may wait at once; past it the server answers 503 at once.
    let limit: Int
    /// Nanoseconds a handler may run; 0 for no limit.
    let timeout: Int64
    private let state = Mutex(State())
    /// libmicrohttpd calls admitted under the lock and not yet returned; `close` waits for 0.
    private let callsInFlight = Atomic<Int>(0)
    private let timer = Mutex<Timer?>(nil)
    /// How many requests were answered 503 for outliving the timeout.
    let timedOut = Atomic<Int>(0)

    init(limit: Int, timeoutSeconds: Int) {
        self.limit = limit
        self.timeout = Int64(max(0, timeoutSeconds)) * 1_000_000_000
    }

    /// Requests waiting now.
    var count: Int { state.withLock { $0.active.count } }

    /// Why ``suspend(_:)`` suspended nothing.
    enum Refusal: Error {
        /// `limit` requests wait already.
        case full
        /// The server is stopping: ``close(answering:)`` has run.
        case closed
    }

    /// Suspends `connection` and registers its request; throws (nothing suspended) when `limit`
    /// requests wait already or the server is stopping, saying which.
    func suspend(_ connection: OpaquePointer) throws(Refusal) -> Suspension {
        let deadline = timeout > 0 ? CoarseClock.nanoseconds() + timeout : 0
        let suspension = Suspension(connection: Connection(pointer: connection), deadline: deadline)
        let refusal: Refusal? = state.withLock { state in
            guard !state.closed else { return .closed }
            guard state.active.count < limit else { return .full }
            state.active[ObjectIdentifier(suspension)] = suspension
            callsInFlight.add(1, ordering: .relaxed)
            return nil
        }
        if let refusal { throw refusal }
        MHD_suspend_connection(connection)
        suspension.isSuspended.store(true, ordering: .releasing)
        callsInFlight.subtract(1, ordering: .releasing)
        return suspension
    }

    /// Hands `response` to the suspended request and resumes its connection, unless it was
    /// answered already (timed out) or the server has closed: then the response is dropped.
    /// Returns whether it was delivered. Call it only after `suspend` returned `suspension`.
    /// `caller`, when known only now, is the observer's. `timingOut` counts it in `timedOut`,
    /// before the client can see the answer.
    @discardableResult
    func complete(_ suspension: Suspension, with response: Response, caller: String? = nil, timingOut: Bool = false) -> Bool {
        let admitted = state.withLock { state in
            guard !state.closed, state.active.removeValue(forKey: ObjectIdentifier(suspension)) != nil else { return false }
            callsInFlight.add(1, ordering: .relaxed)
            return true
        }
        guard admitted else { return false }
        if timingOut { timedOut.add(1, ordering: .relaxed) }
        suspension.deliver(response, caller: caller)
        MHD_resume_connection(suspension.connection.pointer)
        callsInFlight.subtract(1, ordering: .releasing)
        return true
    }

    /// Starts answering late handlers with `expired()` (a few times per timeout, at least once
    /// a second).
    func start(expired: @escaping @Sendable () -> Response) {
        guard timeout > 0 else { return }
        let interval = max(min(timeout / 4, 1_000_000_000), 10_000_000)
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "routemap.handler-deadlines"))
        source.schedule(deadline: .now() + .nanoseconds(Int(interval)), repeating: .nanoseconds(Int(interval)))
        source.setEventHandler { [weak self] in self?.answerLate(with: expired()) }
        source.resume()
        timer.withLock { $0 = Timer(source: source) }
    }

    /// The deadline timer. `@unchecked Sendable`: dispatch sources may be used from any thread.
    private struct Timer: @unchecked Sendable {
        let source: any DispatchSourceTimer
    }

    private func answerLate(with response: Response) {
        let now = CoarseClock.nanoseconds()
        let late = state.withLock { state in
            state.active.values.filter { $0.deadline != 0 && $0.deadline <= now && $0.isSuspended.load(ordering: .acquiring) }
        }
        for suspension in late {
            complete(suspension, with: response, timingOut: true)
        }
    }

    /// Answers every waiting request with `response`, resumes their connections, and from
    /// then on suspends and resumes nothing: call it before the daemon stops. Returns how
    /// many were answered so.
    @discardableResult
    func close(answering response: Response) -> Int {
        if let source = timer.withLock({ timer in defer { timer = nil }; return timer?.source }) {
            // The cancel handler runs after a sweep already under way has finished.
            let done = DispatchSemaphore(value: 0)
            source.setCancelHandler { done.signal() }
            source.cancel()
            done.wait()
        }
        let left = state.withLock { state in
            defer { state.active.removeAll() }
            state.closed = true
            return Array(state.active.values)
        }
        // Nothing is admitted any more; the suspends and resumes admitted before are brief.
        while callsInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
        for suspension in left {
            suspension.deliver(response, caller: nil)
            MHD_resume_connection(suspension.connection.pointer)
        }
        return left.count
    }
}

