import Dispatch
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
            // Round trips to a database server: asked off the server's threads, and off the
            // app's own reads too (`App.reading`), whose threads may all be waiting on the
            // database: a store that answers a health check does so on a connection of its
            // own, so a busy node still says whether its database answers.
            let apps = self.apps
            router.open(.GET, "/healthz") { request in
                do {
                    try await Self.offThread { for app in apps { try app.checkHealth() } }
                } catch {
                    throw Self.unhealthy
                }
                return Self.healthy
            }
        }
    }

    /// Runs `body`, which blocks on the network, on a thread of its own, and suspends meanwhile.
    /// One thread for every check, one check after another: a flood of `/healthz` while the
    /// database hangs queues requests (bounded by the server's limits), not threads.
    private static func offThread(_ body: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            checks.async { done.resume(with: Result { try body() }) }
        }
    }

    private static let checks = DispatchQueue(label: "routemap.healthz")

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
