import Logging

extension Router {
    /// What the router decided for a method and path, before running anything.
    enum Resolution: Sendable {
        case found(Handler, parameters: [String: String])
        case notFound(Problem)
        case methodNotAllowed(Problem)
    }

    /// Picks the handler for `method` on `path`: the most specific matching pattern that has
    /// the method (`HEAD` falls back to `GET`); else 405 listing every matching pattern's
    /// methods, or 404 when no pattern matches.
    func resolve(_ method: HTTPMethod, _ path: String) -> Resolution {
        var allowed = Set<HTTPMethod>()
        var utf8 = path
        let found = utf8.withUTF8 { bytes -> (Handler, [String: String])? in
            for route in routes {
                guard let parameters = route.pattern.match(bytes) else { continue }
                if let handler = route.handlers[method] ?? (method == .HEAD ? route.handlers[.GET] : nil) {
                    return (handler, parameters)
                }
                allowed.formUnion(route.handlers.keys)
            }
            return nil
        }
        if let (handler, parameters) = found { return .found(handler, parameters: parameters) }
        if allowed.isEmpty { return .notFound(Router.notFound(path)) }
        if allowed.contains(.GET) { allowed.insert(.HEAD) }
        return .methodNotAllowed(.methodNotAllowed(allowed: Array(allowed)))
    }

    /// Runs the gates on `request`; the answer when one refuses it, else `nil`.
    func passGates(_ request: inout Request, logger: Logger) -> Response? {
        do {
            for gate in gates { try gate(&request) }
            return nil
        } catch let problem as Problem {
            return Response(problem)
        } catch {
            logger.error("gate failed", metadata: ["path": "\(request.path)", "error": "\(String(reflecting: error))"])
            return Response(.internalError())
        }
    }

    /// Runs `handler` inside the middleware and turns thrown errors into responses.
    func run(_ handler: Handler, _ request: Request, logger: Logger) -> Response {
        let middleware = self.middleware
        func call(_ index: Int, _ request: Request) throws -> Response {
            guard index < middleware.count else { return try handler(request) }
            return try middleware[index](request) { try call(index + 1, $0) }
        }
        do {
            return try call(0, request)
        } catch let problem as Problem {
            return Response(problem)
        } catch {
            logger.error(
                "request failed",
                metadata: [
                    "method": "\(request.method)", "path": "\(request.path)",
                    "error": "\(String(reflecting: error))",
                ])
            return Response(.internalError())
        }
    }

    private static func notFound(_ path: String) -> Problem {
        .notFound(detail: "There is nothing at \(path.prefix(200)).")
    }
}
