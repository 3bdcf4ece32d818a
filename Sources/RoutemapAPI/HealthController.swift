import RoutemapHTTP

/// `GET /healthz`: 200 while every app's data answers, 503 otherwise (for load balancers and
/// the container's `HEALTHCHECK`).
struct HealthController {
    let apps: [any App]

    func register(on router: inout Router<APIContext>) {
        router.open(.GET, "/healthz", immediately: health)
    }

    @Sendable func health(_ request: Request) throws -> Response {
        do {
            for app in apps { try app.checkHealth() }
        } catch {
            throw Problem.unavailable("The database does not answer.")
        }
        return .json(["status": "ok"])
    }
}
