import RoutemapHTTP

/// The API's router as the server calls it: `Router<APIContext>` behind a conformance of this
/// module's own, so the optimizer specializes the router's pipeline for `APIContext` here.
///
/// Called through the generic conformance in `RoutemapHTTP`, every request paid for runtime
/// generic metadata lookups (the routes, endpoints and tuples of an unknown `Context`): about 5%
/// of the server's samples on cached reads, with `perf record` (BENCHMARKS.md).
struct APIResponder: HTTPResponder {
    let router: Router<APIContext>

    func dispatch(_ request: Request, _ reception: Reception) -> Dispatch {
        router.dispatch(request, reception)
    }

    func dispatch(_ request: Request, _ reception: Reception, labels: inout RequestLabels) -> Dispatch {
        router.dispatch(request, reception, labels: &labels)
    }

    func response(for problem: Problem) -> Response {
        router.response(for: problem)
    }
}
