import Logging

/// What a router hands its handlers besides the request: who is calling and what they may do.
/// The application defines it; the HTTP layer only carries it from admission to the handler.
public protocol RequestContext: Sendable {
    /// What a route declares, where it is registered, about who may call it (for example: open
    /// to anyone, or only with a device token).
    associatedtype Access: Sendable
    /// Who is calling (a device id, say), for the server's `RequestObserver`; `nil` when unknown.
    var caller: String? { get }
}

extension RequestContext {
    public var caller: String? { nil }
}

/// The context of a router whose routes are all open: every request is admitted as it is.
public struct OpenContext: RequestContext {
    public enum Access: Sendable { case open }
    public init() {}
}

/// An error that knows the problem a client should see for it. `Problem` is one; an
/// application makes its own errors conform (in its own module) so handlers just `throw`.
public protocol ProblemConvertible: Error {
    var problem: Problem { get }
}

extension Problem: ProblemConvertible {
    public var problem: Problem { self }
}

/// Maps method and path to a handler, and runs the request pipeline (`dispatch`). Built before
/// the server starts and immutable after.
///
/// Patterns are exact (no trailing slash) and matched segment by segment; `{name}` captures
/// one non-empty segment into `Request.parameters`, and a literal segment wins over a capture.
/// `HEAD` runs the `GET` handler. Unknown paths answer 404, known paths with another method
/// 405 with `Allow`.
///
/// Each route declares its `Access` where it is registered; `admit` turns a request and that
/// access into the handler's context, or throws the refusal (401, 429...). A path nobody
/// registered is admitted with `defaultAccess` (or as `accessForUnknownPaths` says) before it
/// gets its 404, so a client without credentials learns nothing about which paths exist;
/// another method on a known path is admitted as `accessForOtherMethods` says before its 405
/// (by default, as an unknown path).
public struct Router<Context: RequestContext>: Sendable {
    /// Admits a request to a route with the given access: the handler's context, or a thrown
    /// `Problem` (or other `ProblemConvertible`) as the answer.
    public typealias Admission = @Sendable (Request, Context.Access) throws -> Context
    /// Admission that may have to wait, as when a credential is looked up in a database across
    /// the network: it decides at once when it can, or hands back the lookup to suspend for.
    public typealias WaitingAdmission = @Sendable (Request, Context.Access) throws -> Admitted

    /// What a `WaitingAdmission` decided.
    public enum Admitted: Sendable {
        /// Admitted now, with this context.
        case now(Context)
        /// Admission has to wait: the connection is suspended while this runs, then the
        /// pipeline goes on with the context it returns (404/405, 413/415, the handler), or
        /// answers what it throws.
        case later(@Sendable () async throws -> Context)
    }

    /// How a route answers.
    public enum Handler: Sendable {
        /// Runs in Swift concurrency while the connection waits, holding no server thread:
        /// for anything that waits (a database commit, a lock).
        case suspending(@Sendable (Request, Context) async throws -> Response)
        /// Runs on the server thread that read the request, with no suspension: for answers
        /// that are ready at once (cached reads), where suspending would cost more than it saves.
        case immediate(@Sendable (Request, Context) throws -> Response)
        /// Runs on the server thread like `immediate`, and either answers at once or hands back
        /// the work to suspend for: for reads that must write only sometimes (a device's first
        /// bill), so the common case costs no suspension.
        case immediateUnlessWaiting(@Sendable (Request, Context) throws -> Reply)
    }

    /// What an `immediateUnlessWaiting` handler decided.
    public enum Reply: Sendable {
        /// The answer, ready now.
        case now(Response)
        /// Work that waits: the connection is suspended while it runs, as for a `suspending` handler.
        case later(@Sendable () async throws -> Response)
    }

    struct Endpoint: Sendable {
        let access: Context.Access
        let handler: Handler
        /// The pattern it was registered on, for `RequestLabels.route`.
        let route: String
    }

    struct Route: Sendable {
        let pattern: RoutePattern
        var endpoints: [HTTPMethod: Endpoint]

        /// The endpoint that answers `method` here: its own, or for `HEAD` the `GET` one.
        func endpoint(for method: HTTPMethod) -> Endpoint? {
            endpoints[method] ?? (method == .HEAD ? endpoints[.GET] : nil)
        }
    }

    /// Most specific pattern first (see `RoutePattern.isMoreSpecific(than:)`).
    private(set) var routes: [Route] = [] {
        didSet {
            let literal = routes.indices.filter { routes[$0].pattern.isLiteral }.map { (routes[$0].pattern.text, $0) }
            literalRoutes = Dictionary(literal) { first, _ in first }
        }
    }
    /// The index in `routes` of each pattern without captures, by its text: a path equal to one
    /// is found with one lookup instead of a walk over the patterns (see `resolve`). Two texts
    /// equal as Swift strings but not as bytes keep the first here; the walk finds the other.
    private(set) var literalRoutes: [String: Int] = [:]
    let defaultAccess: Context.Access
    let admit: WaitingAdmission
    /// The access for a method a known path does not have, from the accesses its methods
    /// declare; `nil`: `defaultAccess`. A router whose accesses have an order may admit such a
    /// request as the path's least demanding method would (a path open to all then answers its
    /// 405 to all: its open method told anyone it is there).
    public var accessForOtherMethods: (@Sendable (_ declared: [Context.Access]) -> Context.Access)?
    /// The access for a path no route matches; `nil`: `defaultAccess`. A router whose protected
    /// routes all live under one prefix may admit other unknown paths openly: their 404 tells
    /// nothing about the protected ones.
    public var accessForUnknownPaths: (@Sendable (_ path: String) -> Context.Access)?
    /// Whether a request body's `Content-Type` is acceptable (else 415); any by default.
    public var acceptsBody: @Sendable (_ contentType: String?) -> Bool = { _ in true }
    /// The `type` of problems that name none: `namespace + code` when set, else RFC 9457's
    /// `about:blank`.
    public var problemTypeNamespace: String?
    /// Where failures of handlers (errors that are not problems) are logged.
    public var logger = Logger(label: "routemap.http")

    /// A router whose requests are admitted by `admit`, with `defaultAccess` for paths and
    /// methods that are not registered.
    public init(defaultAccess: Context.Access, admit: @escaping Admission) {
        self.init(defaultAccess: defaultAccess, admitWaiting: { request, access in .now(try admit(request, access)) })
    }

    /// A router whose admission may have to wait (see `WaitingAdmission`), with
    /// `defaultAccess` for paths and methods that are not registered.
    public init(defaultAccess: Context.Access, admitWaiting admit: @escaping WaitingAdmission) {
        self.defaultAccess = defaultAccess
        self.admit = admit
    }

    /// Registers `handler` for `method` on `pattern`, callable as `access` says. A malformed
    /// pattern, or a second handler for the same method and pattern, is a programming error in
    /// the code that builds the router and stops the process.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, access: Context.Access, _ handler: Handler) {
        let parsed = RoutePattern(pattern)
        let endpoint = Endpoint(access: access, handler: handler, route: parsed.text)
        if let index = routes.firstIndex(where: { $0.pattern == parsed }) {
            precondition(routes[index].endpoints[method] == nil, "\(method) \(pattern) is registered twice.")
            routes[index].endpoints[method] = endpoint
            return
        }
        let position = routes.firstIndex { parsed.isMoreSpecific(than: $0.pattern) } ?? routes.endIndex
        routes.insert(Route(pattern: parsed, endpoints: [method: endpoint]), at: position)
    }

    /// Registers a handler that may suspend (see `Handler.suspending`).
    public mutating func on(
        _ method: HTTPMethod, _ pattern: String, access: Context.Access,
        use handler: @escaping @Sendable (Request, Context) async throws -> Response
    ) {
        on(method, pattern, access: access, .suspending(handler))
    }

    /// Registers a handler that answers at once (see `Handler.immediate`).
    public mutating func on(
        _ method: HTTPMethod, _ pattern: String, access: Context.Access,
        immediately handler: @escaping @Sendable (Request, Context) throws -> Response
    ) {
        on(method, pattern, access: access, .immediate(handler))
    }

    /// Registers a handler that answers at once when it can (see `Handler.immediateUnlessWaiting`).
    public mutating func on(
        _ method: HTTPMethod, _ pattern: String, access: Context.Access,
        unlessWaiting handler: @escaping @Sendable (Request, Context) throws -> Reply
    ) {
        on(method, pattern, access: access, .immediateUnlessWaiting(handler))
    }
}

extension Router where Context == OpenContext {
    /// A router with no access rules: every request reaches its route.
    public init() {
        self.init(defaultAccess: .open) { _, _ in OpenContext() }
    }
}
