import RoutemapDomain
import RoutemapHTTP

/// `GET /healthz`: 200 while the database answers, 503 `unavailable` with `Retry-After`
/// otherwise (for load balancers and the container's `HEALTHCHECK`).
struct HealthController {
    let till: Till

    func register(on router: inout Router<APIContext>) {
        if till.readsAreImmediate {
            router.open(.GET, "/healthz", immediately: health)
        } else {
            // A round trip to the database server: asked off the server's thread.
            router.open(.GET, "/healthz") { request in
                do {
                    try await till.reading { try till.checkHealth() }
                } catch {
                    throw Self.unhealthy
                }
                return Self.healthy
            }
        }
    }

    @Sendable func health(_ request: Request) throws -> Response {
        do {
            try till.checkHealth()
        } catch {
            throw Self.unhealthy
        }
        return Self.healthy
    }

    private static let unhealthy = Problem.unavailable("The database does not answer.")
    private static var healthy: Response { .json(["status": "ok"]) }
}
