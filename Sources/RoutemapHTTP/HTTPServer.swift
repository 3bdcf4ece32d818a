import CMicroHTTPD
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server over libmicrohttpd that answers with an `HTTPResponder` (a `Router`).
///
/// libmicrohttpd's worker threads (`threads` of them, epoll) read each request, body included
/// (up to `maxBodyBytes`), and hand it to the responder's pipeline. An answer ready at once
/// is queued on the same thread; a handler that waits runs in Swift concurrency while the
/// connection is suspended, holding no thread, and its answer is queued when it resumes
/// (`SuspendedRequests`: at most `requestsInFlightLimit` wait at once, each for at most
/// `requestTimeout`). Connections are kept alive.
///
/// Hostile clients meet the limits of `HTTPServerConfiguration`: connections in all and per
/// address, memory per connection (oversized heads get libmicrohttpd's own 431 or 414), an
/// idle timeout, a time limit on receiving each request (`OpenConnections`), and 414 for
/// queries with more arguments than libmicrohttpd can hold (`screen(uri:on:)`).
public final class HTTPServer: Sendable {
    public let configuration: HTTPServerConfiguration
    let responder: any HTTPResponder
    let logger: Logger
    /// Hears of every request and its answer (access log, metrics); `nil` for none.
    let observer: (any RequestObserver)?
    /// The requests whose handlers are running with their connection suspended.
    let suspended: SuspendedRequests

    /// Requests between their first access-handler call and MHD's `NOTIFY_COMPLETED`.
    let inFlight = Atomic<Int>(0)
    /// Set once `shutdown` begins: responses then carry `Connection: close`.
    let shuttingDown = Atomic<Bool>(false)
    /// The open connections, for the request timeout and refusals outside libmicrohttpd.
    let connections: OpenConnections
    /// The per-address connection limit, when trusted proxies are exempt from it; else
    /// libmicrohttpd applies it.
    let addressConnections: AddressConnections?
    private let state = Mutex(State())
    /// libmicrohttpd's log lines while `start` runs, to explain a failure; `nil` otherwise.
    private let startupMessages = Mutex<[String]?>(nil)

    private struct State {
        enum Phase { case idle, running(Daemon), stopped }
        var phase = Phase.idle
        var boundPort: Int?
        var connectionLimit: Int?
        /// The server keeps itself alive while running: MHD holds it unretained in `cls`.
        var keepAlive: HTTPServer?
    }

    /// The running daemon.
    ///
    /// `@unchecked Sendable`: it only crosses threads inside the state `Mutex` or after being
    /// taken out of it by `shutdown` (which sets the phase to stopped first, so exactly one
    /// caller ever gets it). The MHD calls made with it (`MHD_get_daemon_info`,
    /// `MHD_quiesce_daemon`, `MHD_stop_daemon`) are made from that one owner.
    private struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// - Parameter observer: hears of every request and its answer (see `RequestObserver`).
    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder, logger: Logger, observer: (any RequestObserver)? = nil) {
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
        self.observer = observer
        let timeout = configuration.requestTimeout
        addressConnections =
            configuration.trustedProxies.isEmpty
            ? nil : AddressConnections(limit: configuration.perAddressConnectionLimit, trusted: configuration.trustedProxies)
        suspended = SuspendedRequests(limit: configuration.requestsInFlightLimit, timeoutSeconds: timeout)
        connections = OpenConnections(requestTimeout: timeout, idleTimeout: configuration.connectionTimeout) { [logger] count in
            logger.debug(
                "closed connections that did not send a whole request in time",
                metadata: ["connections": "\(count)", "requestTimeout": "\(timeout)s"])
        }
    }

    /// The port the server listens on: the real one once started (also when configured as
    /// 0), else the configured one.
    public var port: Int {
        state.withLock { $0.boundPort } ?? Int(configuration.port)
    }

    /// The connection limit in force: the configured one, or lower when the open-file limit
    /// could not be raised far enough (known once started).
    public var connectionLimit: Int {
        state.withLock { $0.connectionLimit } ?? configuration.connectionLimit
    }

    /// How many connections were closed so far for not sending a whole request within
    /// `requestTimeout`.
    public var connectionsTimedOut: Int {
        connections.expired.load(ordering: .relaxed)
    }

    /// How many requests were answered 503 so far because their handler outlived
    /// `requestTimeout`.
    public var handlersTimedOut: Int {
        suspended.timedOut.load(ordering: .relaxed)
    }

    /// Requests being read, handled or answered now (from the arrival of the head until the
    /// answer is sent or the client leaves).
    public var requestsInFlight: Int {
        inFlight.load(ordering: .relaxed)
    }

    /// Requests whose handlers are running now with their connection suspended.
    public var requestsWaiting: Int {
        suspended.count
    }

    /// Binds and starts the worker threads. Throws `HTTPServerError` when the configuration
    /// is invalid, the address cannot be bound (port in use...) or the server ran already.
    public func start() throws {
        try state.withLock { state throws(HTTPServerError) in
            guard case .idle = state.phase else { throw HTTPServerError("The server was started already.") }
            let (daemon, connectionLimit) = try startDaemon()
            state.phase = .running(daemon)
            state.boundPort = Int(CMHD_get_bound_port(daemon.pointer))
            state.connectionLimit = connectionLimit
            state.keepAlive = self
            connections.start()
            let responder = self.responder, timeout = self.configuration.requestTimeout
            suspended.start { responder.response(for: .timedOut(after: timeout)) }
        }
        let configuration = self.configuration
        logger.info(
            "connection limits",
            metadata: [
                "connectionLimit": "\(connectionLimit)", "perAddressConnectionLimit": "\(configuration.perAddressConnectionLimit)",
                "connectionTimeout": "\(configuration.connectionTimeout)s", "requestTimeout": "\(configuration.requestTimeout)s",
                "connectionMemoryLimit": "\(configuration.connectionMemoryLimit)",
                "openFileLimit": "\(DescriptorBudget.currentLimits().map { String($0.soft) } ?? "unknown")",
            ])
    }

    /// Stops gracefully: stops accepting connections at once, waits until the requests in
    /// flight are answered or `gracePeriod` ends, answers the handlers still running then with
    /// 503 `shutting_down` (they run on, but no connection is resumed after this), then closes
    /// every connection and stops the threads. An immediate handler still running after the
    /// grace period is waited for (threads cannot be cancelled). Does nothing when not
    /// running; safe to call more than once.
    public func shutdown(gracePeriod: Duration = .seconds(10)) {
        let daemon: Daemon? = state.withLock { state in
            guard case .running(let daemon) = state.phase else { return nil }
            state.phase = .stopped
            return daemon
        }
        guard let daemon else { return }
        shuttingDown.store(true, ordering: .sequentiallyConsistent)
        let listener = MHD_quiesce_daemon(daemon.pointer)
        if listener != CMHD_INVALID_SOCKET {
            close(listener)
        } else {
            logger.warning("could not stop accepting connections before stopping")
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: gracePeriod)
        while inFlight.load(ordering: .sequentiallyConsistent) > 0, clock.now < deadline {
            usleep(2_000)
        }
        let left = inFlight.load(ordering: .sequentiallyConsistent)
        if left > 0 {
            logger.warning("stopping with requests in flight", metadata: ["requests": "\(left)"])
        }
        // libmicrohttpd refuses to stop with suspended connections: answer them, and give the
        // worker threads a moment to send those answers.
        if suspended.close(answering: responder.response(for: .shuttingDown())) > 0 {
            let flush = clock.now.advanced(by: .seconds(1))
            while inFlight.load(ordering: .sequentiallyConsistent) > 0, clock.now < flush {
                usleep(2_000)
            }
        }
        MHD_stop_daemon(daemon.pointer)
        connections.stop()
        state.withLock { $0.keepAlive = nil }
    }

    private func startDaemon() throws(HTTPServerError) -> (Daemon, connectionLimit: Int) {
        let configuration = self.configuration
        try configuration.validate()
        let threads = UInt32(configuration.threads)
        let timeout = UInt32(configuration.connectionTimeout)
        let configuredLimit = UInt32(configuration.connectionLimit)
        // With trusted proxies the limit is applied here (`AddressConnections`), not by
        // libmicrohttpd, which cannot exempt an address.
        let perAddressLimit = configuration.trustedProxies.isEmpty ? UInt32(configuration.perAddressConnectionLimit) : 0
        let memoryLimit = UInt32(configuration.connectionMemoryLimit)
        var address = try BindAddress(host: configuration.host, port: configuration.port)
        let connectionLimit = UInt32(fitDescriptors(configuredLimit, threads: threads, mayRaise: configuration.raisesOpenFileLimit))

        var flags = CMHD_USE_ERROR_LOG | CMHD_USE_INTERNAL_POLLING_THREAD | CMHD_USE_EPOLL | CMHD_USE_TURBO | CMHD_ALLOW_SUSPEND_RESUME
        if address.isIPv6 { flags |= CMHD_USE_DUAL_STACK }
        if configuration.tls != nil {
            guard CMHD_tls_supported() != 0 else { throw HTTPServerError("This libmicrohttpd was built without TLS support.") }
            flags |= CMHD_USE_TLS
        }
        let me = Unmanaged.passUnretained(self).toOpaque()

        startupMessages.withLock { $0 = [] }
        errno = 0
        // libmicrohttpd copies the socket address, and hands the PEM texts to GnuTLS while it
        // starts (which copies them): they need to live only through this call.
        let daemon = address.withSockaddr { sockaddr in
            configuration.tls.withPEMs { key, certificate in
                var options = [
                    option(CMHD_OPTION_EXTERNAL_LOGGER, HTTPServer.libraryLog, me),
                    option(CMHD_OPTION_THREAD_POOL_SIZE, Int(threads)),
                    option(CMHD_OPTION_CONNECTION_TIMEOUT, Int(timeout)),
                    option(CMHD_OPTION_CONNECTION_LIMIT, Int(connectionLimit)),
                    option(CMHD_OPTION_PER_IP_CONNECTION_LIMIT, Int(perAddressLimit)),
                    option(CMHD_OPTION_CONNECTION_MEMORY_LIMIT, Int(memoryLimit)),
                    option(CMHD_OPTION_NOTIFY_COMPLETED, HTTPServer.completedHandler, me),
                    option(CMHD_OPTION_NOTIFY_CONNECTION, HTTPServer.connectionNotified, me),
                    option(CMHD_OPTION_URI_LOG_CALLBACK, HTTPServer.uriLogged, me),
                    option(CMHD_OPTION_UNESCAPE_CALLBACK, HTTPServer.unescape, nil),
                    MHD_OptionItem(option: CMHD_OPTION_SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(mutating: sockaddr)),
                ]
                if let key, let certificate {
                    options.append(MHD_OptionItem(option: CMHD_OPTION_HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(mutating: key)))
                    options.append(MHD_OptionItem(option: CMHD_OPTION_HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(mutating: certificate)))
                }
                options.append(MHD_OptionItem(option: CMHD_OPTION_END, value: 0, ptr_value: nil))
                return CMHD_start_daemon(flags, configuration.port, HTTPServer.accessHandler, me, options)
            }
        }
        let errorNumber = errno
        let messages = startupMessages.withLock { messages in
            defer { messages = nil }
            return messages ?? []
        }
        guard let daemon else {
            var message = "Could not listen on \(configuration.host) port \(configuration.port)"
            if errorNumber != 0 { message += ": \(String(cString: strerror(errorNumber))) (errno \(errorNumber))" }
            if !messages.isEmpty { message += ". libmicrohttpd: " + messages.joined(separator: "; ") }
            throw HTTPServerError(message, errorNumber: errorNumber == 0 ? nil : errorNumber)
        }
        return (Daemon(pointer: daemon), Int(connectionLimit))
    }

    /// Makes room for `connectionLimit` connections under the open-file limit: raises the soft
    /// limit as far as needed (up to the hard limit) when `mayRaise`, else lowers the
    /// connection limit to what fits. Logs what it chose; returns the connection limit to apply.
    private func fitDescriptors(_ connectionLimit: UInt32, threads: UInt32, mayRaise: Bool) -> Int {
        let wanted = Int(connectionLimit)
        guard let (soft, hard) = DescriptorBudget.currentLimits() else {
            logger.warning("could not read the open-file limit; connection limit unchanged", metadata: ["connectionLimit": "\(wanted)"])
            return wanted
        }
        var budget = DescriptorBudget.plan(connectionLimit: wanted, threads: Int(threads), soft: soft, hard: mayRaise ? hard : soft)
        if budget.softLimit > soft {
            if let error = DescriptorBudget.setSoftLimit(budget.softLimit) {
                logger.warning(
                    "could not raise the open-file limit",
                    metadata: ["from": "\(soft)", "to": "\(budget.softLimit)", "errno": "\(error)"])
                budget = DescriptorBudget.plan(connectionLimit: wanted, threads: Int(threads), soft: soft, hard: soft)
            } else {
                logger.info(
                    "raised the open-file limit for the connection limit",
                    metadata: ["from": "\(soft)", "to": "\(budget.softLimit)", "hard": "\(hard)", "connectionLimit": "\(wanted)"])
            }
        }
        if budget.connectionLimit < wanted {
            logger.warning(
                "connection limit lowered to fit the open-file limit",
                metadata: [
                    "configured": "\(wanted)", "applied": "\(budget.connectionLimit)",
                    "openFileLimit": "\(budget.softLimit)", "reserved": "\(DescriptorBudget.reserve(threads: Int(threads)))",
                ])
        }
        return budget.connectionLimit
    }

    /// One line of libmicrohttpd's own log: kept to explain a failed start, else logged at
    /// debug level (most lines are about one client's malformed request, which anyone could
    /// send in bulk).
    func libraryLogged(_ message: String) {
        let captured = startupMessages.withLock { messages in
            guard messages != nil else { return false }
            messages?.append(message)
            return true
        }
        if !captured {
            logger.debug("libmicrohttpd: \(message)")
        }
    }
}

/// A libmicrohttpd option that takes a number.
private func option(_ name: MHD_OPTION, _ value: Int) -> MHD_OptionItem {
    MHD_OptionItem(option: name, value: value, ptr_value: nil)
}

/// A libmicrohttpd option that takes a C callback and its `cls`: in an option array the
/// callback goes in the `intptr_t` field, as `microhttpd.h` says.
private func option<Callback>(_ name: MHD_OPTION, _ callback: Callback, _ cls: UnsafeMutableRawPointer?) -> MHD_OptionItem {
    MHD_OptionItem(option: name, value: unsafeBitCast(callback, to: Int.self), ptr_value: cls)
}
