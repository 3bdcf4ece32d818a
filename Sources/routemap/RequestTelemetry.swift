import Logging
import Prometheus
import RoutemapDomain
import RoutemapHTTP
import Synchronization

/// The server's `RequestObserver`: counts every answered request and its latency in the
/// Prometheus registry, and writes the access log's line for it (unless the access log is off).
///
/// The access line holds the request id, method, route pattern (never the raw path, which
/// holds bill and line ids), status, duration, bytes and the device id when known; never a
/// header or a body, so no token or enrollment code can reach the log through it.
final class RequestTelemetry: RequestObserver {
    private let accessLog: Logger?
    private let registry: PrometheusCollectorRegistry
    /// The counter of each method, route and status seen, with its route's histogram: made on
    /// first use, then found with one lock and one lookup per request (the registry's own
    /// lookup takes a lock and builds a key; two lookups here contended measurably under load).
    private let metrics = Mutex<[MetricsKey: (counter: Prometheus.Counter, histogram: DurationHistogram)]>([:])

    private struct MetricsKey: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    /// Latency buckets: from a cached read (well under a millisecond) to the request timeout.
    static let latencyBuckets: [Duration] = [
        .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
        .seconds(2.5), .seconds(5), .seconds(10), .seconds(20),
    ]

    init(registry: PrometheusCollectorRegistry, accessLog: Logger?) {
        self.registry = registry
        self.accessLog = accessLog
    }

    /// The method as counted and logged: by name for GET, HEAD, POST, PUT, PATCH, DELETE and
    /// OPTIONS; any other token a client sends is `other`, so made-up methods cannot grow the
    /// registry (a series each) without bound. (Compared as small strings: no hashing on every
    /// request.)
    static func label(of method: HTTPMethod) -> String {
        switch method {
        case .GET, .HEAD, .POST, .PUT, .PATCH, .DELETE, .OPTIONS: method.rawValue
        default: "other"
        }
    }

    func requestAnswered(_ record: RequestRecord) {
        let route = record.route ?? "unmatched"
        let method = Self.label(of: record.method)
        let key = MetricsKey(method: method, route: route, status: record.status)
        let (counter, histogram) = metrics.withLock { metrics in
            if let found = metrics[key] { return found }
            let made = (counter: makeCounter(key), histogram: makeHistogram(route: route))
            metrics[key] = made
            return made
        }
        counter.increment()
        histogram.recordNanoseconds(record.duration.nanoseconds)

        guard let accessLog else { return }
        var metadata: Logger.Metadata = [
            "requestId": .string(record.id),
            "method": .string(method),
            "route": .string(route),
            "status": .stringConvertible(record.status),
            "durationMs": .stringConvertible(Double(record.duration.nanoseconds / 1000) / 1000),
            "bytes": .stringConvertible(record.bytes),
        ]
        if let caller = record.caller { metadata["device"] = .string(caller) }
        accessLog.info("request", metadata: metadata)
    }

    private func makeCounter(_ key: MetricsKey) -> Prometheus.Counter {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                namespace: "routemap", subsystem: "http", metricName: "requests", unitName: "total",
                helpText: "Requests answered, by method, route pattern and status."),
            labels: [("method", key.method), ("route", key.route), ("status", String(key.status))])
    }

    /// The registry gives the same histogram for the same name and labels, so every status of
    /// a route shares one.
    private func makeHistogram(route: String) -> DurationHistogram {
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "routemap", subsystem: "http", metricName: "request_duration", unitName: "seconds",
                helpText: "Time from a request's head arriving to its answer being queued, by route pattern."),
            labels: [("route", route)], buckets: Self.latencyBuckets)
    }
}
