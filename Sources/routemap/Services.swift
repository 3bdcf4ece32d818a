import Dispatch
import Logging
import Prometheus
import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapStorage
import ServiceLifecycle
import Synchronization

// What `routemap serve` runs under swift-service-lifecycle's `ServiceGroup`. On SIGTERM or
// SIGINT the group shuts them down one by one in the reverse of their order in `serve`: the
// HTTP server first (in-flight requests finish), then the sweeper and the metrics, and the
// store last, so nothing writes after the database is closed.

/// The HTTP server: started when the group runs, stopped gracefully when it shuts down.
struct HTTPService: Service {
    let server: HTTPServer
    let gracePeriod: Duration
    let logger: Logger
    /// Called once the server listens (prints the line scripts wait for).
    let started: @Sendable (HTTPServer) -> Void

    func run() async throws {
        try server.start()
        started(server)
        // Returns on graceful shutdown, or throws CancellationError if the group is cancelled.
        try? await gracefulShutdown()
        logger.info("routemap stopping", metadata: ["requestsInFlight": "\(server.requestsInFlight)"])
        let server = self.server, gracePeriod = self.gracePeriod
        // `shutdown` waits for requests in flight; it blocks, so not on a cooperative thread.
        await offCooperativePool { server.shutdown(gracePeriod: gracePeriod) }
    }
}

/// The store: runs until shutdown, then closes it (SQLite: its write queue, a checkpoint and the
/// file; PostgreSQL: its threads and connections).
struct StoreService: Service {
    let store: OpenedStore

    func run() async throws {
        try? await gracefulShutdown()
        let store = self.store
        try await offCooperativePool { try store.close() }
    }
}

/// Right after the HTTP server stopped (its grace period over), ends what still waits on the
/// database: on PostgreSQL the store's connections are closed, the leased ones too, so a
/// statement or a connect waiting on a database that hangs fails at once, and the services
/// shut down after this one (the apps' background work, the metrics sampler, the key sweeper,
/// each perhaps in the middle of a read) and the store's own close do not each wait out the
/// statement limit or the connect timeout. Nothing is served any more by then.
struct StoreInterruption: Service {
    let store: OpenedStore

    func run() async throws {
        try? await gracefulShutdown()
        let store = self.store
        await offCooperativePool { store.interrupt() }
    }
}

/// An app's own work while the server runs (`App.runInBackground`), until the graceful stop.
struct AppBackgroundWork: Service {
    let app: any App

    func run() async throws {
        await cancelWhenGracefulShutdown { await app.runInBackground() }
    }
}

/// Deletes expired idempotency records once a minute (`Till.deleteExpiredIdempotencyRecords`).
struct KeySweeper: Service {
    let till: Till
    let logger: Logger
    var interval: Duration = .seconds(60)

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await till.deleteExpiredIdempotencyRecords()
            } catch {
                logger.error("could not delete expired idempotency records", metadata: ["error": "\(String(reflecting: error))"])
            }
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
        }
    }
}

/// The gauges that are read rather than counted (requests in flight, bills not yet paid):
/// sampled every few seconds, and before every scrape (`sample()`).
final class MetricsSampler: Service {
    private let server = Mutex<HTTPServer?>(nil)
    private let store: OpenedStore
    private let logger: Logger
    private let inFlight: Prometheus.Gauge
    private let waiting: Prometheus.Gauge
    private let openBills: Prometheus.Gauge
    private let checkedOutBills: Prometheus.Gauge

    init(registry: PrometheusCollectorRegistry, store: OpenedStore, logger: Logger) {
        self.store = store
        self.logger = logger
        inFlight = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "routemap", subsystem: "http", metricName: "requests_in_flight", unitName: "",
                helpText: "Requests being read, handled or answered now."))
        waiting = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "routemap", subsystem: "http", metricName: "requests_waiting", unitName: "",
                helpText: "Requests whose handler is waiting now (for a commit, say) with the connection suspended."))
        let bills = MetricNameDescriptor(
            namespace: "routemap", metricName: "bills_unpaid", unitName: "", helpText: "Bills not yet paid, by status.")
        openBills = registry.makeGauge(descriptor: bills, labels: [("status", "open")])
        checkedOutBills = registry.makeGauge(descriptor: bills, labels: [("status", "checked_out")])
    }

    /// The server whose requests in flight to sample (made after the sampler, which its
    /// router's `/metrics` needs).
    func watch(_ server: HTTPServer) {
        self.server.withLock { $0 = server }
    }

    /// Reads each gauge's value now; the bill counts where the store's reads may wait (on
    /// PostgreSQL, a round trip).
    func sample() async {
        if let server = server.withLock({ $0 }) {
            inFlight.set(Double(server.requestsInFlight))
            waiting.set(Double(server.requestsWaiting))
        }
        do {
            let store = self.store
            let bills = try await store.store.reading { try store.unpaidBillCounts() }
            openBills.set(Double(bills.open))
            checkedOutBills.set(Double(bills.checkedOut))
        } catch {
            logger.error("could not count unpaid bills", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            await sample()
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(5)) }
            } catch {
                return
            }
        }
    }
}

/// Runs blocking `work` on a dispatch thread and waits for it without holding a cooperative one.
func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

func offCooperativePool(_ work: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            work()
            continuation.resume()
        }
    }
}
