import Logging
import RoutemapHTTP
import RoutemapJSON
import Testing

@Suite("Router")
struct RouterTests {
    private func body(_ response: Response) -> JSON { (try? JSON.parse(response.body)) ?? .null }
    private func text(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }
    private func named(_ name: String) -> Router.Handler { { _ in Response(body: Array(name.utf8)) } }

    @Test("captures {name} segments into parameters")
    func parameters() {
        var router = Router()
        router.get("/v1/bills/{billId}/items/{lineId}") { request in .json(.object(JSONObject(request.parameters.map { ($0.key, JSON.string($0.value)) }))) }
        let response = router.respond(to: Request(method: .GET, path: "/v1/bills/b%201/items/l-2"))
        #expect(response.status == .ok)
        #expect(body(response)["billId"] == "b%201")
        #expect(body(response)["lineId"] == "l-2")
        #expect(router.respond(to: Request(method: .GET, path: "/v1/bills/b1/items")).status == .notFound)
        #expect(router.respond(to: Request(method: .GET, path: "/v1/bills/b1/items/l1/x")).status == .notFound)
    }

    @Test("a literal segment wins over a capture, whatever the registration order")
    func literalBeatsCapture() {
        var router = Router()
        router.get("/v1/bills/{billId}", use: named("capture"))
        router.get("/v1/bills/current", use: named("literal"))
        router.get("/{a}/{b}/x", use: named("captures"))
        router.get("/{a}/bills/x", use: named("later literal"))
        #expect(text(router.respond(to: Request(method: .GET, path: "/v1/bills/current"))) == "literal")
        #expect(text(router.respond(to: Request(method: .GET, path: "/v1/bills/other"))) == "capture")
        #expect(text(router.respond(to: Request(method: .GET, path: "/q/bills/x"))) == "later literal")
        #expect(text(router.respond(to: Request(method: .GET, path: "/q/r/x"))) == "captures")
    }

    @Test("unknown paths answer 404 not_found as problem+json")
    func notFound() {
        var router = Router()
        router.get("/a", use: named("a"))
        let response = router.respond(to: Request(method: .GET, path: "/b"))
        #expect(response.status == .notFound)
        #expect(response.headers["content-type"] == "application/problem+json")
        #expect(body(response)["code"] == "not_found")
        #expect(body(response)["type"] == "urn:routemap:problem:not_found")
    }

    @Test("a known path with another method answers 405 with a sorted Allow that includes HEAD")
    func methodNotAllowed() {
        var router = Router()
        router.post("/items", use: named("post"))
        router.get("/items", use: named("get"))
        router.delete("/items/{id}", use: named("delete"))
        let response = router.respond(to: Request(method: .PUT, path: "/items"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, POST")
        #expect(body(response)["code"] == "method_not_allowed")
        let single = router.respond(to: Request(method: .GET, path: "/items/7"))
        #expect(single.headers["Allow"] == "DELETE")
        #expect(router.respond(to: Request(method: .OPTIONS, path: "/items")).status == .methodNotAllowed)
    }

    @Test("HEAD runs the GET handler")
    func head() {
        var router = Router()
        router.get("/a", use: named("a"))
        let response = router.respond(to: Request(method: .HEAD, path: "/a"))
        #expect(response.status == .ok)
        #expect(text(response) == "a")
    }

    @Test("paths match exactly: no trailing slash, no empty segments", arguments: ["/a/", "//a", "/a//b", "/a/b/", "a", "", "/A", "/", "/a/x/b/", "/a/x//b", "/a/x/bb", "/a/x/b/c"])
    func exactPaths(path: String) {
        var router = Router()
        router.get("/a", use: named("a"))
        router.get("/a/{id}", use: named("a id"))
        router.get("/a/{id}/b", use: named("b"))
        #expect(router.respond(to: Request(method: .GET, path: path)).status == .notFound)
    }

    @Test("the root path and a route's exact path do match")
    func exactMatches() {
        var router = Router()
        router.get("/", use: named("root"))
        router.get("/a", use: named("a"))
        #expect(text(router.respond(to: Request(method: .GET, path: "/"))) == "root")
        #expect(text(router.respond(to: Request(method: .GET, path: "/a"))) == "a")
    }

    @Test("middleware runs in the order added, around matched handlers only")
    func middlewareOrder() {
        var router = Router()
        for name in ["outer", "inner"] {
            router.add { request, next in
                var request = request
                request.headers.add(name: "X-Trace", value: name)
                var response = try next(request)
                response.headers.add(name: "X-Trace", value: name)
                return response
            }
        }
        router.get("/a") { request in
            Response(headers: HTTPHeaders(request.headers.values(for: "x-trace").map { ("X-Trace", $0) } + [("X-Trace", "handler")]))
        }
        let response = router.respond(to: Request(method: .GET, path: "/a"))
        #expect(response.headers.values(for: "X-Trace") == ["outer", "inner", "handler", "inner", "outer"])
        let missing = router.respond(to: Request(method: .GET, path: "/zzz"))
        #expect(missing.status == .notFound)
        #expect(missing.headers.values(for: "X-Trace").isEmpty)
    }

    @Test("middleware can answer without calling the handler, and turn errors into problems")
    func middlewareShortCircuit() {
        var router = Router()
        router.add { request, next in
            guard request.headers["Authorization"] != nil else {
                throw Problem(
                    status: .unauthorized, code: "unauthorized", title: "Unauthorized", detail: "Log in.",
                    headers: ["WWW-Authenticate": "Bearer"])
            }
            return try next(request)
        }
        router.get("/a", use: named("a"))
        let denied = router.respond(to: Request(method: .GET, path: "/a"))
        #expect(denied.status == .unauthorized)
        #expect(denied.headers["WWW-Authenticate"] == "Bearer")
        let allowed = router.respond(to: Request(method: .GET, path: "/a", headers: ["authorization": "Bearer x"]))
        #expect(text(allowed) == "a")
    }

    @Test("a thrown Problem becomes its response: members in order, headers, extensions")
    func thrownProblem() {
        var router = Router()
        router.get("/a") { _ in
            throw Problem(
                status: .tooManyRequests, code: "rate_limited", title: "Too many requests", detail: "Slow down.",
                headers: ["Retry-After": "3"], extensions: ["limit": 10, "code": "overridden?"])
        }
        let response = router.respond(to: Request(method: .GET, path: "/a"))
        #expect(response.status == .tooManyRequests)
        #expect(response.headers["Retry-After"] == "3")
        #expect(response.headers["Content-Type"] == "application/problem+json")
        let object = body(response).objectValue
        #expect(object?.keys == ["type", "title", "status", "detail", "code", "limit"])
        #expect(object?["code"] == "rate_limited")
        #expect(object?["status"] == 429)
        #expect(object?["type"] == "urn:routemap:problem:rate_limited")
    }

    @Test("any other error answers 500 internal_error, logged but not shown")
    func thrownOtherError() {
        var router = Router()
        router.get("/a") { _ in throw SecretError() }
        let log = CapturedLog()
        let response = router.respond(to: Request(method: .GET, path: "/a"), logger: log.logger)
        #expect(response.status == .internalServerError)
        #expect(body(response)["code"] == "internal_error")
        #expect(!text(response).contains("hunter2"))
        #expect(!text(response).contains("SecretError"))
        let errors = log.all.filter { $0.level == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.metadata["error"]?.description.contains("hunter2") == true)
    }

    @Test("Response.json sets the content type; headers are case-insensitive and replaceable")
    func responseAndHeaders() throws {
        let response = Response.json(["a": 1], status: .created, headers: ["content-type": "text/plain", "Location": "/x"])
        #expect(response.status.code == 201)
        #expect(response.headers.values(for: "Content-Type") == ["application/json"])
        #expect(response.headers["location"] == "/x")
        #expect(try JSON.parse(response.body) == ["a": 1])
        var headers: HTTPHeaders = ["A": "1", "b": "2", "a": "3"]
        headers.replaceOrAdd(name: "a", value: "4")
        #expect(Array(headers.map(\.value)) == ["4", "2"])
        #expect(HTTPStatus(code: 404) == .notFound)
        #expect(HTTPStatus.payloadTooLarge.reasonPhrase == "Content Too Large")
    }
}
