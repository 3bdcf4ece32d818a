import Logging

/// Maps method and path to a handler. Built before the server starts and immutable after.
///
/// Patterns are exact (no trailing slash) and matched segment by segment; `{name}` captures
/// one non-empty segment into `Request.parameters`, and a literal segment wins over a capture.
/// `HEAD` runs the `GET` handler. Unknown paths answer 404, known paths with another method
/// 405 with `Allow`. Middleware wraps matched handlers only, the first added outermost.
public struct Router: Sendable {
    /// Answers one request. Throw a `Problem` for an error response; any other error
    /// answers 500 `internal_error` and is logged, never shown.
    public typealias Handler = @Sendable (Request) throws -> Response
    /// Runs around the handler (and any later middleware), reached through `next`.
    public typealias Middleware = @Sendable (Request, _ next: (Request) throws -> Response) throws -> Response
    /// Runs on every request before routing, in the order added: throws a `Problem` to answer
    /// the request itself, or annotates it (`identity`). Authentication belongs here, so a
    /// client without credentials learns nothing about which paths exist.
    public typealias Gate = @Sendable (inout Request) throws -> Void

    struct Route: Sendable {
        let pattern: RoutePattern
        var handlers: [HTTPMethod: Handler]
    }

    /// Most specific pattern first (see `RoutePattern.isMoreSpecific(than:)`).
    private(set) var routes: [Route] = []
    private(set) var middleware: [Middleware] = []
    private(set) var gates: [Gate] = []

    public init() {}

    /// Registers `handler` for `method` on `pattern`. A malformed pattern, or a second handler
    /// for the same method and pattern, is a programming error and stops the process.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, use handler: @escaping Handler) {
        let parsed = RoutePattern(pattern)
        if let index = routes.firstIndex(where: { $0.pattern == parsed }) {
            precondition(routes[index].handlers[method] == nil, "\(method) \(pattern) is registered twice.")
            routes[index].handlers[method] = handler
            return
        }
        let position = routes.firstIndex { parsed.isMoreSpecific(than: $0.pattern) } ?? routes.endIndex
        routes.insert(Route(pattern: parsed, handlers: [method: handler]), at: position)
    }

    public mutating func get(_ pattern: String, use handler: @escaping Handler) { on(.GET, pattern, use: handler) }
    public mutating func post(_ pattern: String, use handler: @escaping Handler) { on(.POST, pattern, use: handler) }
    public mutating func put(_ pattern: String, use handler: @escaping Handler) { on(.PUT, pattern, use: handler) }
    public mutating func patch(_ pattern: String, use handler: @escaping Handler) { on(.PATCH, pattern, use: handler) }
    public mutating func delete(_ pattern: String, use handler: @escaping Handler) { on(.DELETE, pattern, use: handler) }

    /// Adds middleware around every matched handler; the first added runs first.
    public mutating func add(middleware: @escaping Middleware) {
        self.middleware.append(middleware)
    }

    /// Adds a gate that every request passes before routing; the first added runs first.
    public mutating func add(gate: @escaping Gate) {
        gates.append(gate)
    }

    /// Routes `request` and runs it: the response a client would get (problems included).
    /// Errors other than `Problem` are logged to `logger` at error level.
    public func respond(to request: Request, logger: Logger = Router.fallbackLogger) -> Response {
        var request = request
        if let refusal = passGates(&request, logger: logger) { return refusal }
        switch resolve(request.method, request.path) {
        case .notFound(let problem), .methodNotAllowed(let problem):
            return Response(problem)
        case .found(let handler, let parameters):
            var request = request
            request.parameters = parameters
            return run(handler, request, logger: logger)
        }
    }

    /// Used when no logger is given.
    public static let fallbackLogger = Logger(label: "routemap.http")
}
