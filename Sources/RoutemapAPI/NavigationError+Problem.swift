import RoutemapHTTP
import RoutemapNavigation

extension NavigationError {
    /// The problem a client receives when a navigation cannot be produced.
    public var problem: Problem {
        switch self {
        case .unknownRoute(let id):
            return .notFound("route", id.rawValue)
        case .noRoot:
            return .internalError()
        case .invalidStack(let reason):
            return Problem(
                status: .unprocessableContent, code: "invalid_stack", title: "Invalid stack",
                detail: "The stack is not one the route registry can produce: \(reason).")
        case .missingInput(let name, let route):
            return Problem(
                status: .unprocessableContent, code: "missing_input", title: "Missing input",
                detail: "Route \(route) needs the input '\(name)'; send it in `input`.",
                extensions: ["input": .string(name), "route": .string(route.rawValue)])
        case .noParent:
            return Problem(
                status: .unprocessableContent, code: "no_parent", title: "No parent",
                detail: "The stack shows only the root screen (the root and its selected tabs), which has no parent.")
        case .targetRequired:
            return .invalidField("to", "'to' is required with modes 'to' and 'sub'.")
        case .rootAsSub:
            return .invalidField("to", "The root cannot be opened with mode 'sub'.")
        case .guardFailed(let route, let routeGuard):
            return Problem(
                status: .conflict, code: routeGuard.code, title: "Route not available",
                detail: "Route \(route) is shown only when \(routeGuard.summary).",
                extensions: ["route": .string(route.rawValue), "guard": .string(routeGuard.name)])
        case .unsupportedClient(let reason):
            return Problem(
                status: .unprocessableContent, code: "unsupported_client", title: "Unsupported client",
                detail: "This navigation cannot be performed by this client: \(reason).")
        }
    }
}
