import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import RoutemapClient

/// A transport that answers in-process, by `handler`: its status and JSON body for each
/// request, or an error (a lost connection). Every request is noted, in order.
struct StubTransport: HTTPTransport {
    actor Log {
        private(set) var requests: [URLRequest] = []
        func note(_ request: URLRequest) { requests.append(request) }
    }

    let log = Log()
    let handler: @Sendable (_ request: URLRequest, _ attempt: Int) async throws -> (status: Int, body: JSONValue)

    /// `handler` gets each request and how many requests came before it (0 for the first).
    init(_ handler: @escaping @Sendable (_ request: URLRequest, _ attempt: Int) async throws -> (status: Int, body: JSONValue)) {
        self.handler = handler
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let attempt = await log.requests.count
        await log.note(request)
        let (status, body) = try await handler(request, attempt)
        let contentType = status >= 400 ? "application/problem+json" : "application/json"
        let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": contentType])!
        return (try JSONEncoder.sorted.encode(body), response)
    }
}

/// A stand-in for the server's navigation endpoints, in-process, for what the real binary cannot
/// be made to do mid-test: change its registry, as a deploy does. It answers `GET /v1/routes`
/// with `registry` (a flat list, parents before children), `GET /v1/launch` with `launch`, and
/// `POST /v1/navigate` with the next of `walks`; a test changes them between calls.
actor ScriptedServer {
    var registry: [Route]
    var launch: NavigationAnswer
    var walks: [NavigationAnswer] = []
    /// `METHOD path` of every request, in order.
    private(set) var requests: [String] = []

    init(registry: [Route], launch: NavigationAnswer) {
        self.registry = registry
        self.launch = launch
    }

    /// A deploy: the registry and launch change.
    func deploy(registry: [Route], launch: NavigationAnswer? = nil) {
        self.registry = registry
        if let launch { self.launch = launch }
    }

    func answerWalks(_ walks: [NavigationAnswer]) { self.walks = walks }

    /// How many requests went to `METHOD path`.
    func count(_ request: String) -> Int { requests.filter { $0 == request }.count }

    /// A client of this server, with a token.
    nonisolated func client() -> APIClient {
        let transport = StubTransport { request, _ in try await self.answer(request) }
        return APIClient(baseURL: URL(string: "http://scripted.invalid")!, token: "token", transport: transport, retry: .init(maxAttempts: 1))
    }

    private func answer(_ request: URLRequest) throws -> (status: Int, body: JSONValue) {
        let line = "\(request.httpMethod ?? "GET") \(request.url?.path ?? "")"
        requests.append(line)
        switch line {
        case "GET /v1/routes": return (200, ["root": try tree(of: nil)[0]])
        case "GET /v1/launch": return (200, try JSONValue(encoding: launch))
        case "POST /v1/navigate" where !walks.isEmpty: return (200, try JSONValue(encoding: walks.removeFirst()))
        default:
            return (404, ["type": "about:blank", "title": "Not found", "status": 404, "detail": .string(line), "code": "not_found"])
        }
    }

    /// The registry's routes under `parent` as `GET /v1/routes` nodes.
    private func tree(of parent: RouteID?) throws -> [JSONValue] {
        try registry.filter { $0.parent == parent }.map { route in
            guard case .object(var node) = try JSONValue(encoding: route) else { throw TestSetupError("a route encodes as an object") }
            node["children"] = .array(try tree(of: route.id))
            return .object(node)
        }
    }
}
