import CMicroHTTPD

/// What the server keeps about one request between libmicrohttpd's calls of the access
/// handler: created on the first call, kept in `*req_cls` (retained), released on
/// `NOTIFY_COMPLETED`. MHD calls back for one connection from one thread at a time, so this
/// class is never shared between threads while in use and needs no lock (a suspended
/// handler's answer travels in its `Suspension`, which has its own).
final class RequestState {
    /// Set when the request cannot be read (e.g. invalid UTF-8): answered 400 at the end.
    var badRequest: String?
    /// Answer `badRequest` on the first call, before any body, and so close the connection:
    /// the request's framing can't be trusted.
    var answerEarly = false
    /// The request target was cut before libmicrohttpd parsed it (too many query arguments):
    /// answered 414 on the first call, its size named.
    var targetTooLong: (bytes: Int, arguments: Int)?
    var method: HTTPMethod
    var path: String
    var query: [String: String] = [:]
    var headers = HTTPHeaders()
    var peer: PeerAddress?
    var body: [UInt8] = []
    /// More body arrived than `maxBodyBytes`: the rest is dropped, the answer is 413.
    var tooLarge = false
    /// A response was queued already (413 on the first call): ignore later calls.
    var responded = false
    /// Set while (and after) the handler runs with the connection suspended.
    var suspension: SuspendedRequests.Suspension?
    /// The request's id (`RequestID`), echoed on the answer.
    var id = ""
    /// When the head arrived (`ContinuousClock`), for the observer's duration.
    var started = ContinuousClock.Instant.now
    /// What the router noted for the observer.
    var labels = RequestLabels()

    init(method: HTTPMethod, path: String) {
        self.method = method
        self.path = path
    }

    /// The request without its body or path parameters, as gates see it.
    func head() -> Request {
        Request(method: method, path: path, query: query, headers: headers, peer: peer, requestId: id)
    }

    /// Collects header fields or query arguments from MHD into `headers` / `query`.
    struct Collector {
        var fields: [HTTPHeaders.Field] = []
        var invalid = false
    }
}
