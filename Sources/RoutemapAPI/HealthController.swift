import RoutemapDomain
import RoutemapHTTP

/// `GET /healthz`: 200 while every app's data answers, 503 `unavailable` with `Retry-After`
/// otherwise (for load balancers and the container's `HEALTHCHECK`).
struct HealthController {
    let apps: [any App]

    func register(on router: inout Router<APIContext>) {
        if apps.allSatisfy(\.readsAreImmediate) {
            router.open(.GET, "/healthz", immediately: health)
        } else {
            // Round trips to a database server: asked off the server's threads.
            let apps = self.apps
            router.open(.GET, "/healthz") { request in
                do {
                    for app in apps { try await app.reading { try app.checkHealth() } }
                } catch {
                    throw Self.unhealthy
                }
                return Self.healthy
            }
        }
    }

    @Sendable func health(_ request: Request) throws -> Response {
        do {
            for app in apps { try app.checkHealth() }
        } catch {
            throw Self.unhealthy
        }
        return Self.healthy
    }

    private static let unhealthy = Problem.unavailable("The database does not answer.")
    private static var healthy: Response { .json(["status": "ok"]) }
}
