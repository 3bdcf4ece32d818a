import RoutemapDomain
import RoutemapHTTP

/// `GET /healthz`: 200 while the database answers, 503 otherwise (for load balancers and the
/// container's `HEALTHCHECK`).
struct HealthController {
    let till: Till

    func register(on router: inout Router<APIContext>) {
        router.open(.GET, "/healthz", immediately: health)
    }

    @Sendable func health(_ request: Request) throws -> Response {
        do {
            try till.checkHealth()
        } catch {
            throw Problem.unavailable("The database does not answer.")
        }
        return .json(["status": "ok"])
    }
}
