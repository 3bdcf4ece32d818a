import Synchronization

/// Hears of every request the server answers: the seam an application hangs its access log and
/// its metrics on, without the HTTP layer knowing either.
///
/// The server calls `requestAnswered` once per answer, when it hands the answer to
/// libmicrohttpd (whatever gave it: a handler, the router's refusals, or the server's own 503s
/// for `overloaded`, `timed_out` and `shutting_down`), on the thread that queues it. A request
/// whose client left before it was read whole gets no answer and no call (requests in flight
/// are `HTTPServer.requestsInFlight`). It runs on the request path: keep it cheap, never block.
public protocol RequestObserver: Sendable {
    func requestAnswered(_ record: RequestRecord)
}

/// One answered request, as the server tells its observer.
public struct RequestRecord: Sendable {
    /// The request's id: the client's `X-Request-Id` when well-formed, else one the server made;
    /// echoed on the answer.
    public var id: String
    public var method: HTTPMethod
    /// The pattern of the route that matched, such as `/v1/bills/{billId}` (never the raw path,
    /// which may hold ids); `nil` when none matched or the request was refused before routing.
    public var route: String?
    public var status: Int
    /// Body bytes of the answer (the body is not sent for `HEAD`, but counted).
    public var bytes: Int
    /// From the arrival of the request's head to its answer being queued.
    public var duration: Duration
    /// Who called, as admission found them (the router's `RequestContext.caller`), when known.
    public var caller: String?

    public init(id: String, method: HTTPMethod, route: String?, status: Int, bytes: Int, duration: Duration, caller: String?) {
        self.id = id
        self.method = method
        self.route = route
        self.status = status
        self.bytes = bytes
        self.duration = duration
        self.caller = caller
    }
}

/// What the router learned about a request while dispatching it, for the observer.
public struct RequestLabels: Sendable {
    /// The matched route's pattern.
    public var route: String?
    /// Who called, when admission said.
    public var caller: String?

    public init(route: String? = nil, caller: String? = nil) {
        self.route = route
        self.caller = caller
    }
}

/// Request ids: a client's `X-Request-Id` is kept when it is 1 to 64 characters of letters,
/// digits and `-._:` (so it is safe to log and to echo); otherwise the server makes one, unique
/// within this process and across restarts: a random prefix chosen at start-up and a counter.
enum RequestID {
    static let headerName = "X-Request-Id"

    /// The client's id if well-formed, else a new one.
    static func take(from client: String?) -> String {
        if let client, isWellFormed(client) { return client }
        return make()
    }

    static func isWellFormed(_ id: String) -> Bool {
        var id = id
        return id.withUTF8 { bytes in
            guard (1...64).contains(bytes.count) else { return false }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"):
                    continue
                default: return false
                }
            }
            return true
        }
    }

    private static let digits: [UInt8] = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
    /// The random prefix and its `-`.
    private static let prefix: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        return (0..<8).map { _ in digits[Int(generator.next(upperBound: UInt32(digits.count)))] } + [UInt8(ascii: "-")]
    }()
    private static let counter = Atomic<UInt64>(0)

    /// `<prefix>-<counter in base 36>`, e.g. `k3v9q0zt-1a`. Written into the string's own
    /// storage (every answer without a client's id makes one: concatenating and formatting
    /// the number cost a percent of a cached read).
    static func make() -> String {
        make(number: counter.wrappingAdd(1, ordering: .relaxed).newValue)
    }

    /// The id of the `number`th request: the prefix and `number` in base 36.
    static func make(number: UInt64) -> String {
        var digitCount = 1
        var rest = number / 36
        while rest > 0 {
            digitCount += 1
            rest /= 36
        }
        return String(unsafeUninitializedCapacity: prefix.count + digitCount) { output in
            var end = output.initialize(fromContentsOf: prefix) + digitCount
            var rest = number
            for _ in 0..<digitCount {
                end -= 1
                output[end] = digits[Int(rest % 36)]
                rest /= 36
            }
            return prefix.count + digitCount
        }
    }
}
