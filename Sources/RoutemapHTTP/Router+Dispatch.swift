import Logging

/// What the server learned about a request while reading it, besides the request itself.
public struct Reception: Sendable {
    /// The request target was too large to parse (414): its size and query argument count.
    public var targetTooLong: (bytes: Int, arguments: Int)?
    /// Why the request cannot be read (400 `bad_request`), if it cannot.
    public var unreadable: String?
    /// The body was longer than `maxBodyBytes` and was dropped (413).
    public var bodyTooLarge = false
    /// The largest body the server accepts, named in a 413 answer.
    public var maxBodyBytes: Int

    public init(maxBodyBytes: Int, bodyTooLarge: Bool = false, unreadable: String? = nil, targetTooLong: (bytes: Int, arguments: Int)? = nil) {
        self.maxBodyBytes = maxBodyBytes
        self.bodyTooLarge = bodyTooLarge
        self.unreadable = unreadable
        self.targetTooLong = targetTooLong
    }
}

/// The pipeline's decision for one request: the answer, or work that produces it later.
public enum Dispatch: Sendable {
    case answer(Response)
    /// Run this in Swift concurrency and send what it returns (it never throws: errors are
    /// answers already). It notes in `labels` what it learns while it runs: the caller, when
    /// admission had to wait.
    case suspend(@Sendable (_ labels: inout RequestLabels) async -> Response)
}

/// Anything that can answer the server's requests; `Router` is the one routemap uses.
public protocol HTTPResponder: Sendable {
    /// Decides what to answer `request`, in the pipeline's order (see `Router.dispatch`).
    func dispatch(_ request: Request, _ reception: Reception) -> Dispatch
    /// `dispatch`, also telling what it learned for the server's observer (route, caller).
    func dispatch(_ request: Request, _ reception: Reception, labels: inout RequestLabels) -> Dispatch
    /// `problem` as this responder answers it (with its problem type), for the answers the
    /// server gives by itself (503 when too busy, 500 for an invalid response).
    func response(for problem: Problem) -> Response
}

extension HTTPResponder {
    /// A responder that learns nothing for the observer.
    public func dispatch(_ request: Request, _ reception: Reception, labels: inout RequestLabels) -> Dispatch {
        dispatch(request, reception)
    }

    /// Runs the whole pipeline for `request` and waits for its answer: for tests that drive
    /// the router in process. A body over `maxBodyBytes` is answered 413, as the server would.
    public func respond(to request: Request, maxBodyBytes: Int = 65_536) async -> Response {
        var request = request
        let tooLarge = request.body.count > maxBodyBytes
        if tooLarge { request.body = [] }
        switch dispatch(request, Reception(maxBodyBytes: maxBodyBytes, bodyTooLarge: tooLarge)) {
        case .answer(let response): return response
        case .suspend(let work):
            var labels = RequestLabels()
            return await work(&labels)
        }
    }
}

extension Router: HTTPResponder {
    /// The request pipeline, the one place its order is written; the server and in-process
    /// tests both come through here:
    ///
    /// 1. 414 `uri_too_long`, 2. 400 `bad_request` (from `reception`),
    /// 3. admission with the route's access (for another method on a known path, see
    ///    `accessForOtherMethods`; the default access for unknown paths): 401, 429...,
    /// 4. 404 / 405, 5. 413 / 415, 6. the handler.
    ///
    /// An admission that has to wait (`Admitted.later`) suspends the request there; steps 4 to 6
    /// follow once it is done, in the same order.
    public func dispatch(_ request: Request, _ reception: Reception) -> Dispatch {
        var labels = RequestLabels()
        return dispatch(request, reception, labels: &labels)
    }

    /// The pipeline (see `dispatch(_:_:)`), noting the matched route's pattern and the caller
    /// in `labels`.
    public func dispatch(_ request: Request, _ reception: Reception, labels: inout RequestLabels) -> Dispatch {
        if let target = reception.targetTooLong {
            return .answer(response(for: .uriTooLong(bytes: target.bytes, arguments: target.arguments)))
        }
        if let detail = reception.unreadable {
            return .answer(response(for: .badRequest(detail: detail)))
        }
        let resolution = resolve(request.method, request.path)
        labels.route = resolution.route
        let admitted: Admitted
        do {
            admitted = try admit(request, access(for: resolution, path: request.path))
        } catch {
            return .answer(response(for: error, of: request, in: "admission"))
        }
        switch admitted {
        case .now(let context):
            labels.caller = context.caller
            return dispatchAdmitted(request, reception, resolution, context)
        case .later(let admitting):
            return .suspend { [self] labels in
                let context: Context
                do {
                    context = try await admitting()
                } catch {
                    return response(for: error, of: request, in: "admission")
                }
                labels.caller = context.caller
                switch dispatchAdmitted(request, reception, resolution, context) {
                case .answer(let response): return response
                case .suspend(let work): return await work(&labels)
                }
            }
        }
    }

    /// The access a request is admitted with: its endpoint's; for another method on a known
    /// path, what `accessForOtherMethods` makes of the path's; for an unknown path, what
    /// `accessForUnknownPaths` says of it; else the default access.
    private func access(for resolution: Resolution, path: String) -> Context.Access {
        switch resolution {
        case .found(let endpoint, _): endpoint.access
        case .methodNotAllowed(_, let accesses, _): accessForOtherMethods?(accesses) ?? defaultAccess
        case .notFound: accessForUnknownPaths?(path) ?? defaultAccess
        }
    }

    /// The pipeline after admission: 404 / 405, 413 / 415, the handler.
    private func dispatchAdmitted(_ request: Request, _ reception: Reception, _ resolution: Resolution, _ context: Context) -> Dispatch {
        guard case .found(let endpoint, let parameters) = resolution else {
            return .answer(response(for: resolution.refusal ?? .internalError()))
        }
        if reception.bodyTooLarge {
            return .answer(response(for: .payloadTooLarge(limit: reception.maxBodyBytes)))
        }
        if !request.body.isEmpty, !acceptsBody(request.headers["Content-Type"]) {
            return .answer(response(for: .unsupportedMediaType(received: request.headers["Content-Type"])))
        }
        var request = request
        request.parameters = parameters
        switch endpoint.handler {
        case .immediate(let handler):
            do {
                return .answer(try handler(request, context))
            } catch {
                return .answer(response(for: error, of: request, in: "handler"))
            }
        case .suspending(let handler):
            return suspend(request) { [request] in try await handler(request, context) }
        case .immediateUnlessWaiting(let handler):
            do {
                switch try handler(request, context) {
                case .now(let response): return .answer(response)
                case .later(let work): return suspend(request, work)
                }
            } catch {
                return .answer(response(for: error, of: request, in: "handler"))
            }
        }
    }

    /// `work` run in Swift concurrency, its errors answered as problems.
    private func suspend(_ request: Request, _ work: @escaping @Sendable () async throws -> Response) -> Dispatch {
        .suspend { _ in
            do {
                return try await work()
            } catch {
                return response(for: error, of: request, in: "handler")
            }
        }
    }

    /// `problem` as the client gets it, with this router's problem type when it names none.
    public func response(for problem: Problem) -> Response {
        var problem = problem
        if problem.type == nil, let namespace = problemTypeNamespace { problem.type = namespace + problem.code }
        return Response(problem)
    }

    /// The answer for an error thrown by admission or a handler: its problem, or 500 (logged,
    /// with its cause; never shown to the client).
    func response(for error: any Error, of request: Request, in stage: String) -> Response {
        if let convertible = error as? any ProblemConvertible { return response(for: convertible.problem) }
        logger.error(
            "request failed",
            metadata: [
                "stage": "\(stage)", "method": "\(request.method)", "path": "\(request.path.prefix(200))",
                "requestId": "\(request.requestId ?? "-")",
                "error": "\(String(reflecting: error))",
            ])
        return response(for: .internalError())
    }
}

extension Router {
    /// What the router decided for a method and path, before running anything.
    enum Resolution: Sendable {
        case found(Endpoint, parameters: [String: String])
        case notFound(Problem)
        /// The path is known, with other methods: the accesses its endpoints declare, and the
        /// most specific pattern it matched.
        case methodNotAllowed(Problem, accesses: [Context.Access], route: String)

        /// The pattern the path matched, for `RequestLabels.route`; `nil` when none did.
        var route: String? {
            switch self {
            case .found(let endpoint, _): endpoint.route
            case .methodNotAllowed(_, _, let route): route
            case .notFound: nil
            }
        }

        var refusal: Problem? {
            switch self {
            case .found: nil
            case .notFound(let problem), .methodNotAllowed(let problem, _, _): problem
            }
        }
    }

    /// Picks the endpoint for `method` on `path`: the most specific matching pattern that has
    /// the method (`HEAD` falls back to `GET`); else 405 listing every matching pattern's
    /// methods, or 404 when no pattern matches.
    func resolve(_ method: HTTPMethod, _ path: String) -> Resolution {
        // A pattern without captures that equals the path is the most specific match there is.
        // (Bytes compared too: `String` equality is Unicode's, under which "\u{212A}" is "K".)
        if let index = literalRoutes[path], routes[index].pattern.hasText(path), let endpoint = routes[index].endpoint(for: method) {
            return .found(endpoint, parameters: [:])
        }
        var allowed = Set<HTTPMethod>()
        var accesses: [Context.Access] = []
        var matched: String?
        var utf8 = path
        let found = utf8.withUTF8 { bytes -> (Endpoint, [String: String])? in
            for route in routes {
                guard let parameters = route.pattern.match(bytes) else { continue }
                if let endpoint = route.endpoint(for: method) {
                    return (endpoint, parameters)
                }
                allowed.formUnion(route.endpoints.keys)
                accesses += route.endpoints.values.map(\.access)
                matched = matched ?? route.pattern.text
            }
            return nil
        }
        if let (endpoint, parameters) = found { return .found(endpoint, parameters: parameters) }
        guard let matched else { return .notFound(.notFound(detail: "There is nothing at \(path.prefix(200)).")) }
        if allowed.contains(.GET) { allowed.insert(.HEAD) }
        return .methodNotAllowed(.methodNotAllowed(allowed: Array(allowed)), accesses: accesses, route: matched)
    }
}
