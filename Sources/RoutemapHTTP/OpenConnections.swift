import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's open connections, as `MHD_OPTION_NOTIFY_CONNECTION` reports them, for what
/// libmicrohttpd can't do itself:
///
/// - **The request timeout** (`HTTPServerConfiguration.requestTimeout`): a connection that
///   has not delivered a complete request (head and body) by its deadline is shut down,
///   however steadily it sends. libmicrohttpd has only an idle timeout, which every byte
///   received resets, and no callback between a connection's accept and its complete request
///   head. So each connection is stamped as it opens, the access handler clears the deadline
///   once the request is in, `NOTIFY_COMPLETED` sets the next one (idle timeout plus request
///   timeout: idling between requests is the idle timeout's business), and a timer sweeps the
///   open connections and `shutdown(2)`s the late ones' sockets. libmicrohttpd then reads end
///   of file and closes the connection on its own thread, as if the client had left.
/// - **Refusing a request target before libmicrohttpd parses it** (`refusedTarget…`): see
///   `HTTPServer.screen(uri:on:)`.
///
/// A socket is shut down only while its connection is registered, under the registry's lock,
/// and libmicrohttpd reports a connection closed (removing it here, under the same lock)
/// before it closes the socket: the descriptor can't have been reused for another connection.
final class OpenConnections: Sendable {
    /// One open connection.
    final class Connection: Sendable {
        let descriptor: Int32
        /// Monotonic time (nanoseconds) by which the request in progress must be complete; 0
        /// while none is due (handler running, answer being sent, no request timeout, or a
        /// kept-alive connection without an idle timeout).
        let deadline: Atomic<Int64>
        /// The request target was too long for libmicrohttpd to parse (its query was cut, see
        /// `HTTPServer.screen(uri:on:)`): its size in bytes and query arguments, for the 414
        /// the request gets in place of the router's answer; 0 when it was not.
        let refusedTargetBytes = Atomic<Int>(0)
        let refusedTargetArguments = Atomic<Int>(0)
        /// Answered already outside libmicrohttpd (plain HTTP's 414): its request must not
        /// reach the router, nor be answered again.
        let answeredOutside = Atomic<Bool>(false)

        init(descriptor: Int32, deadline: Int64) {
            self.descriptor = descriptor
            self.deadline = Atomic(deadline)
        }
    }

    /// Nanoseconds to receive a request; 0 for no limit.
    let requestTimeout: Int64
    /// Nanoseconds a kept-alive connection may idle before its next request starts; 0 when
    /// idle connections are never closed (then kept-alive connections get no deadline).
    let idleTimeout: Int64
    /// How many connections were shut down for missing their deadline.
    let expired = Atomic<Int>(0)

    private let open = Mutex<[ObjectIdentifier: Connection]>([:])
    private let timer = Mutex<Timer?>(nil)
    private let onExpiry: @Sendable (Int) -> Void

    /// `onExpiry` hears the number of connections each sweep shut down (never 0).
    init(requestTimeout seconds: Int, idleTimeout idleSeconds: Int, onExpiry: @escaping @Sendable (Int) -> Void) {
        requestTimeout = Int64(max(0, seconds)) * 1_000_000_000
        idleTimeout = Int64(max(0, idleSeconds)) * 1_000_000_000
        self.onExpiry = onExpiry
    }

    /// Starts sweeping (with a request timeout), four times per request timeout but at least
    /// once a second.
    func start() {
        guard requestTimeout > 0 else { return }
        let interval = max(min(requestTimeout / 4, 1_000_000_000), 10_000_000)
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "routemap.request-deadlines"))
        source.schedule(
            deadline: .now() + .nanoseconds(Int(interval)), repeating: .nanoseconds(Int(interval)),
            leeway: .nanoseconds(Int(interval / 10)))
        source.setEventHandler { [weak self] in self?.sweep() }
        source.resume()
        timer.withLock { $0 = Timer(source: source) }
    }

    /// Stops sweeping; returns once no sweep runs.
    func stop() {
        guard let source = timer.withLock({ timer in defer { timer = nil }; return timer?.source }) else { return }
        // The cancel handler runs after a sweep already under way has finished.
        let done = DispatchSemaphore(value: 0)
        source.setCancelHandler { done.signal() }
        source.cancel()
        done.wait()
    }

    /// A connection opened on `descriptor`: its first request is due within the request timeout.
    func opened(descriptor: Int32) -> Connection {
        let connection = Connection(descriptor: descriptor, deadline: requestTimeout == 0 ? 0 : CoarseClock.nanoseconds() + requestTimeout)
        open.withLock { $0[ObjectIdentifier(connection)] = connection }
        return connection
    }

    /// The request on `connection` is complete: no deadline while it is handled and answered.
    func received(_ connection: Connection) {
        connection.deadline.store(0, ordering: .relaxed)
    }

    /// The answer on `connection` was sent: the next request may idle first, then must be quick.
    func answered(_ connection: Connection) {
        let deadline = idleTimeout == 0 || requestTimeout == 0 ? 0 : CoarseClock.nanoseconds() + idleTimeout + requestTimeout
        connection.deadline.store(deadline, ordering: .relaxed)
    }

    /// libmicrohttpd closed `connection` (and will close its socket next).
    func closed(_ connection: Connection) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// Shuts down every connection past its deadline.
    func sweep() {
        let now = CoarseClock.nanoseconds()
        let count = open.withLock { open in
            var count = 0
            for connection in open.values {
                let deadline = connection.deadline.load(ordering: .relaxed)
                guard deadline != 0, deadline <= now else { continue }
                // Once only, and not if the request completed meanwhile (the deadline changed).
                guard connection.deadline.compareExchange(expected: deadline, desired: 0, ordering: .relaxed).exchanged
                else { continue }
                _ = shutdown(connection.descriptor, Int32(SHUT_RDWR))
                count += 1
            }
            return count
        }
        if count > 0 {
            expired.wrappingAdd(count, ordering: .relaxed)
            onExpiry(count)
        }
    }

    /// The sweeping timer. `@unchecked Sendable`: dispatch sources may be used from any thread.
    private struct Timer: @unchecked Sendable {
        let source: any DispatchSourceTimer
    }
}
