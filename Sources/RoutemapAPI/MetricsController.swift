import RoutemapHTTP

/// `GET /metrics`: the program's metrics in Prometheus' text format, open to anyone or, when
/// the operator set a metrics token, only with `Authorization: Bearer <metrics token>` (a
/// device token does not open it, nor does the metrics token open anything else).
public struct MetricsEndpoint: Sendable {
    /// The bearer token `/metrics` requires; `nil`: open.
    public var token: String?
    /// The exposition, rendered for each scrape (it may read the store: the scrape waits for it
    /// without holding a server thread).
    public var render: @Sendable () async -> [UInt8]

    public init(token: String?, render: @escaping @Sendable () async -> [UInt8]) {
        self.token = token
        self.render = render
    }
}

struct MetricsController {
    let endpoint: MetricsEndpoint

    func register(on router: inout Router<APIContext>) {
        router.open(.GET, "/metrics", metrics)
    }

    @Sendable func metrics(_ request: Request) async throws -> Response {
        if let token = endpoint.token {
            guard let header = request.headers["Authorization"] else {
                throw Problem.unauthorized("/metrics needs `Authorization: Bearer <metrics token>`.")
            }
            guard let given = DeviceAuthenticator.bearerToken(in: header), Self.same(given, token) else {
                throw Problem.unauthorized("The metrics token is not valid.", invalidToken: true)
            }
        }
        return Response(status: .ok, headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8"], body: await endpoint.render())
    }

    /// Whether `a` equals `b`, in time that depends on their lengths only.
    static func same(_ a: String, _ b: String) -> Bool {
        let a = Array(a.utf8), b = Array(b.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
