import Logging
import RoutemapHTTP
import RoutemapJSON
import Testing

/// The context of the admission tests' routers: a member's name, or nobody on open routes.
private struct Caller: RequestContext {
    enum Access: Sendable { case open, member }
    let name: String?
    var caller: String? { name }
}

@Suite("Router")
struct RouterTests {
    private func body(_ response: Response) -> JSON { (try? JSON.parse(response.body)) ?? .null }
    private func text(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }
    /// Runs suspended work as the server would, returning its answer and what it noted.
    private func run(_ work: @Sendable (inout RequestLabels) async -> Response) async -> (Response, RequestLabels) {
        var labels = RequestLabels()
        let response = await work(&labels)
        return (response, labels)
    }
    private func named(_ name: String) -> @Sendable (Request) throws -> Response { { _ in Response(body: Array(name.utf8)) } }

    @Test("captures {name} segments into parameters")
    func parameters() async {
        var router = TestRouter()
        router.get("/v1/bills/{billId}/items/{lineId}") { request in .json(.object(JSONObject(request.parameters.map { ($0.key, JSON.string($0.value)) }))) }
        let response = await router.respond(to: Request(method: .GET, path: "/v1/bills/b%201/items/l-2"))
        #expect(response.status == .ok)
        #expect(body(response)["billId"] == "b%201")
        #expect(body(response)["lineId"] == "l-2")
        #expect(await router.respond(to: Request(method: .GET, path: "/v1/bills/b1/items")).status == .notFound)
        #expect(await router.respond(to: Request(method: .GET, path: "/v1/bills/b1/items/l1/x")).status == .notFound)
    }

    @Test("a literal segment wins over a capture, whatever the registration order")
    func literalBeatsCapture() async {
        var router = TestRouter()
        router.get("/v1/bills/{billId}", use: named("capture"))
        router.get("/v1/bills/current", use: named("literal"))
        router.get("/{a}/{b}/x", use: named("captures"))
        router.get("/{a}/bills/x", use: named("later literal"))
        #expect(text(await router.respond(to: Request(method: .GET, path: "/v1/bills/current"))) == "literal")
        #expect(text(await router.respond(to: Request(method: .GET, path: "/v1/bills/other"))) == "capture")
        #expect(text(await router.respond(to: Request(method: .GET, path: "/q/bills/x"))) == "later literal")
        #expect(text(await router.respond(to: Request(method: .GET, path: "/q/r/x"))) == "captures")
    }

    @Test("a literal path without the method falls through to a capture that has it; only its exact bytes match it")
    func literalWithoutTheMethod() async {
        var router = TestRouter()
        router.get("/v1/bills/open", use: named("open bills"))
        router.delete("/v1/bills/{billId}", use: named("delete a bill"))
        router.get("/v1/Keys", use: named("keys"))
        #expect(text(await router.respond(to: Request(method: .GET, path: "/v1/bills/open"))) == "open bills")
        #expect(text(await router.respond(to: Request(method: .HEAD, path: "/v1/bills/open"))) == "open bills")
        #expect(text(await router.respond(to: Request(method: .DELETE, path: "/v1/bills/open"))) == "delete a bill")
        let put = await router.respond(to: Request(method: .PUT, path: "/v1/bills/open"))
        #expect(put.status == .methodNotAllowed)
        #expect(put.headers["Allow"] == "DELETE, GET, HEAD")
        // U+212A KELVIN SIGN is canonically equivalent to "K": equal as Swift strings, not as bytes.
        #expect(text(await router.respond(to: Request(method: .GET, path: "/v1/Keys"))) == "keys")
        #expect(await router.respond(to: Request(method: .GET, path: "/v1/\u{212A}eys")).status == .notFound)
        router.get("/v1/\u{212A}eys", use: named("kelvin keys"))
        #expect(text(await router.respond(to: Request(method: .GET, path: "/v1/Keys"))) == "keys")
        #expect(text(await router.respond(to: Request(method: .GET, path: "/v1/\u{212A}eys"))) == "kelvin keys")
    }

    @Test("unknown paths answer 404 not_found as problem+json")
    func notFound() async {
        var router = TestRouter()
        router.problemTypeNamespace = "urn:routemap:problem:"
        router.get("/a", use: named("a"))
        let response = await router.respond(to: Request(method: .GET, path: "/b"))
        #expect(response.status == .notFound)
        #expect(response.headers["content-type"] == "application/problem+json")
        #expect(body(response)["code"] == "not_found")
        #expect(body(response)["type"] == "urn:routemap:problem:not_found")
    }

    @Test("a known path with another method answers 405 with a sorted Allow that includes HEAD")
    func methodNotAllowed() async {
        var router = TestRouter()
        router.post("/items", use: named("post"))
        router.get("/items", use: named("get"))
        router.delete("/items/{id}", use: named("delete"))
        let response = await router.respond(to: Request(method: .PUT, path: "/items"))
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, POST")
        #expect(body(response)["code"] == "method_not_allowed")
        let single = await router.respond(to: Request(method: .GET, path: "/items/7"))
        #expect(single.headers["Allow"] == "DELETE")
        #expect(await router.respond(to: Request(method: .OPTIONS, path: "/items")).status == .methodNotAllowed)
        // Metrics and logs name the path's pattern, as for its other methods; 404 names none.
        for (path, route) in [("/items/7", "/items/{id}"), ("/items", "/items"), ("/nothing", nil)] as [(String, String?)] {
            var labels = RequestLabels()
            _ = router.dispatch(Request(method: .PATCH, path: path), Reception(maxBodyBytes: 1024), labels: &labels)
            #expect(labels.route == route, "\(path)")
        }
    }

    @Test("HEAD runs the GET handler")
    func head() async {
        var router = TestRouter()
        router.get("/a", use: named("a"))
        let response = await router.respond(to: Request(method: .HEAD, path: "/a"))
        #expect(response.status == .ok)
        #expect(text(response) == "a")
    }

    @Test("paths match exactly: no trailing slash, no empty segments", arguments: ["/a/", "//a", "/a//b", "/a/b/", "a", "", "/A", "/", "/a/x/b/", "/a/x//b", "/a/x/bb", "/a/x/b/c"])
    func exactPaths(path: String) async {
        var router = TestRouter()
        router.get("/a", use: named("a"))
        router.get("/a/{id}", use: named("a id"))
        router.get("/a/{id}/b", use: named("b"))
        #expect(await router.respond(to: Request(method: .GET, path: path)).status == .notFound)
    }

    @Test("the root path and a route's exact path do match")
    func exactMatches() async {
        var router = TestRouter()
        router.get("/", use: named("root"))
        router.get("/a", use: named("a"))
        #expect(text(await router.respond(to: Request(method: .GET, path: "/"))) == "root")
        #expect(text(await router.respond(to: Request(method: .GET, path: "/a"))) == "a")
    }

    @Test("admission sees each route's declared access; unknown paths get the default access first, other methods on a known path what the router says")
    func admissionByAccess() async {
        var router = Router<Caller>(defaultAccess: .member) { request, access in
            guard case .member = access else { return Caller(name: nil) }
            guard let name = request.headers["X-Member"] else {
                throw Problem(status: .unauthorized, code: "unauthorized", title: "Unauthorized", detail: "Members only.")
            }
            return Caller(name: name)
        }
        router.on(.GET, "/open", access: .open) { _, caller in Response(body: Array("open \(caller.name ?? "-")".utf8)) }
        router.on(.GET, "/member", access: .member) { _, caller in Response(body: Array("hello \(caller.name ?? "-")".utf8)) }
        #expect(text(await router.respond(to: Request(method: .GET, path: "/open"))) == "open -")
        #expect(await router.respond(to: Request(method: .GET, path: "/member")).status == .unauthorized)
        #expect(text(await router.respond(to: Request(method: .GET, path: "/member", headers: ["X-Member": "ann"]))) == "hello ann")
        // Nothing registered there: the default access refuses before the 404 would tell.
        #expect(await router.respond(to: Request(method: .GET, path: "/nowhere")).status == .unauthorized)
        #expect(await router.respond(to: Request(method: .GET, path: "/nowhere", headers: ["X-Member": "ann"])).status == .notFound)
        // Another method on a known path: by default, admitted as an unknown path is.
        #expect(await router.respond(to: Request(method: .POST, path: "/open")).status == .unauthorized)
        #expect(await router.respond(to: Request(method: .POST, path: "/open", headers: ["X-Member": "ann"])).status == .methodNotAllowed)
        // Told to admit it as the path's least demanding method would: an open path's 405
        // needs no credentials (its GET tells anyone it exists); a members' path's still does.
        router.accessForOtherMethods = { $0.contains { if case .open = $0 { true } else { false } } ? .open : .member }
        #expect(await router.respond(to: Request(method: .POST, path: "/open")).status == .methodNotAllowed)
        #expect(await router.respond(to: Request(method: .POST, path: "/open", headers: ["X-Member": "ann"])).status == .methodNotAllowed)
        #expect(await router.respond(to: Request(method: .POST, path: "/member")).status == .unauthorized)
        #expect(await router.respond(to: Request(method: .POST, path: "/member", headers: ["X-Member": "ann"])).status == .methodNotAllowed)
        // Told which unknown paths need no credentials: those get their 404 at once.
        router.accessForUnknownPaths = { $0.hasPrefix("/members/") ? .member : .open }
        #expect(await router.respond(to: Request(method: .GET, path: "/nowhere")).status == .notFound)
        #expect(await router.respond(to: Request(method: .GET, path: "/members/nowhere")).status == .unauthorized)
    }

    @Test("an admission that waits suspends the request; the pipeline then goes on in order with its context, or answers its refusal")
    func waitingAdmission() async {
        // Members in the header are known at once; `X-Lookup` ones only after a wait.
        var router = Router<Caller>(defaultAccess: .member, admitWaiting: { request, access in
            guard case .member = access else { return .now(Caller(name: nil)) }
            if let name = request.headers["X-Member"] { return .now(Caller(name: name)) }
            let looked = request.headers["X-Lookup"]
            return .later {
                await Task.yield()
                guard let looked, looked != "stranger" else {
                    throw Problem(status: .unauthorized, code: "unauthorized", title: "Unauthorized", detail: "Members only.")
                }
                return Caller(name: looked)
            }
        })
        router.acceptsBody = { $0 == "application/json" }
        router.on(.GET, "/member", access: .member) { _, caller in Response(body: Array("hello \(caller.name ?? "-")".utf8)) }
        router.on(.POST, "/member", access: .member) { _, caller in Response(body: Array("posted \(caller.name ?? "-")".utf8)) }
        router.on(.GET, "/member/later", access: .member, use: { _, caller in
            await Task.yield()
            return Response(body: Array("later \(caller.name ?? "-")".utf8))
        })
        let reception = Reception(maxBodyBytes: 10)
        func dispatched(_ request: Request) async -> (suspended: Bool, response: Response, labels: RequestLabels) {
            var labels = RequestLabels()
            switch router.dispatch(request, reception, labels: &labels) {
            case .answer(let response): return (false, response, labels)
            case .suspend(let work):
                let (response, late) = await run(work)
                if late.caller != nil { labels.caller = late.caller }
                return (true, response, labels)
            }
        }

        let known = await dispatched(Request(method: .GET, path: "/member", headers: ["X-Member": "ann"]))
        #expect(!known.suspended && text(known.response) == "hello ann" && known.labels.caller == "ann")
        let looked = await dispatched(Request(method: .GET, path: "/member", headers: ["X-Lookup": "bob"]))
        #expect(looked.suspended && text(looked.response) == "hello bob")
        #expect(looked.labels.caller == "bob" && looked.labels.route == "/member")
        let suspending = await dispatched(Request(method: .GET, path: "/member/later", headers: ["X-Lookup": "cy"]))
        #expect(suspending.suspended && text(suspending.response) == "later cy" && suspending.labels.caller == "cy")
        // Refused after the wait: 401, on a known path and an unknown one alike (before any 404).
        let refused = await dispatched(Request(method: .GET, path: "/member", headers: ["X-Lookup": "stranger"]))
        #expect(refused.suspended && refused.response.status == .unauthorized && refused.labels.caller == nil)
        #expect(await dispatched(Request(method: .GET, path: "/nowhere", headers: ["X-Lookup": "stranger"])).response.status == .unauthorized)
        // Admitted after the wait: then 404, 405, 415 as for anyone admitted at once.
        #expect(await dispatched(Request(method: .GET, path: "/nowhere", headers: ["X-Lookup": "bob"])).response.status == .notFound)
        #expect(await dispatched(Request(method: .DELETE, path: "/member", headers: ["X-Lookup": "bob"])).response.status == .methodNotAllowed)
        let plain = await dispatched(Request(method: .POST, path: "/member", headers: ["X-Lookup": "bob", "Content-Type": "text/plain"], body: Array("hi".utf8)))
        #expect(plain.response.status == .unsupportedMediaType)
        let json = await dispatched(Request(method: .POST, path: "/member", headers: ["X-Lookup": "bob", "Content-Type": "application/json"], body: Array("{}".utf8)))
        #expect(text(json.response) == "posted bob")
        // A body over the limit, once admitted after the wait: 413; refused: 401 first, on a
        // known path and an unknown one alike.
        for (path, who, status) in [("/member", "bob", 413), ("/member", "stranger", 401), ("/nowhere", "stranger", 401)] {
            var labels = RequestLabels()
            guard case .suspend(let work) = router.dispatch(
                Request(method: .POST, path: path, headers: ["X-Lookup": who]), Reception(maxBodyBytes: 10, bodyTooLarge: true), labels: &labels)
            else {
                Issue.record("a body over the limit was answered before the admission that must wait: \(path), \(who)")
                continue
            }
            #expect(await run(work).0.status.code == status, "\(path), \(who)")
        }
    }

    @Test("the pipeline's order: 414, 400, admission, 404/405, 413, 415, then the handler")
    func pipelineOrder() async {
        var router = Router<OpenContext>(defaultAccess: .open) { request, _ in
            guard request.headers["Authorization"] != nil else {
                throw Problem(status: .unauthorized, code: "unauthorized", title: "Unauthorized", detail: "Log in.")
            }
            return OpenContext()
        }
        router.acceptsBody = { $0 == "application/json" }
        router.post("/a", use: named("a"))
        func status(_ request: Request, _ reception: Reception) async -> Int {
            switch router.dispatch(request, reception) {
            case .answer(let response): response.status.code
            case .suspend(let work): await run(work).0.status.code
            }
        }
        let authorized: HTTPHeaders = ["Authorization": "x", "Content-Type": "text/plain"]
        let request = Request(method: .POST, path: "/a", headers: authorized, body: Array("hi".utf8))
        let everything = Reception(maxBodyBytes: 1, bodyTooLarge: true, unreadable: "bad", targetTooLong: (30_000, 500))
        #expect(await status(Request(method: .POST, path: "/zzz"), everything) == 414)
        var reception = everything
        reception.targetTooLong = nil
        #expect(await status(Request(method: .POST, path: "/zzz"), reception) == 400)
        reception.unreadable = nil
        #expect(await status(Request(method: .POST, path: "/zzz"), reception) == 401)
        #expect(await status(Request(method: .POST, path: "/zzz", headers: authorized), reception) == 404)
        #expect(await status(Request(method: .GET, path: "/a", headers: authorized), reception) == 405)
        #expect(await status(request, reception) == 413)
        reception.bodyTooLarge = false
        #expect(await status(request, reception) == 415)
        var json = request
        json.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        #expect(await status(json, reception) == 200)
    }

    @Test("an immediate handler answers without suspending; a suspending one later")
    func handlerKinds() async {
        var router = TestRouter()
        router.get("/now", use: named("now"))
        router.getSuspending("/later") { _ in Response(body: Array("later".utf8)) }
        guard case .answer(let now) = router.dispatch(Request(method: .GET, path: "/now"), Reception(maxBodyBytes: 10)) else {
            Issue.record("an immediate handler suspended")
            return
        }
        #expect(text(now) == "now")
        guard case .suspend(let work) = router.dispatch(Request(method: .GET, path: "/later"), Reception(maxBodyBytes: 10)) else {
            Issue.record("a suspending handler answered at once")
            return
        }
        #expect(text(await run(work).0) == "later")
    }

    @Test("a handler that answers now unless it must wait: its answer at once, its work suspended, its errors as problems")
    func immediateUnlessWaiting() async {
        var router = TestRouter()
        router.on(.GET, "/maybe/{when}", access: .open, unlessWaiting: { request, _ in
            switch request.parameters["when"] {
            case "now": return .now(Response(body: Array("now".utf8)))
            case "later": return .later { Response(body: Array("later".utf8)) }
            case "failing-later": return .later { throw Problem(status: .conflict, code: "late", title: "Late", detail: "Late.") }
            default: throw Problem(status: .conflict, code: "early", title: "Early", detail: "Early.")
            }
        })
        let reception = Reception(maxBodyBytes: 10)
        guard case .answer(let now) = router.dispatch(Request(method: .GET, path: "/maybe/now"), reception) else {
            Issue.record("an answer ready now suspended")
            return
        }
        #expect(text(now) == "now")
        guard case .answer(let early) = router.dispatch(Request(method: .GET, path: "/maybe/fail"), reception) else {
            Issue.record("a handler that threw at once suspended")
            return
        }
        #expect(early.status == .conflict && body(early)["code"] == "early")
        guard case .suspend(let later) = router.dispatch(Request(method: .GET, path: "/maybe/later"), reception) else {
            Issue.record("work that waits was answered at once")
            return
        }
        #expect(text(await run(later).0) == "later")
        let late = await router.respond(to: Request(method: .GET, path: "/maybe/failing-later"))
        #expect(late.status == .conflict && body(late)["code"] == "late")
    }

    @Test("problems name the router's type namespace, else about:blank")
    func problemTypes() async {
        var router = TestRouter()
        router.get("/a") { _ in throw Problem(status: .conflict, code: "taken", title: "Taken", detail: "Taken.") }
        router.get("/typed") { _ in throw Problem(status: .conflict, code: "taken", title: "Taken", detail: "Taken.", type: "https://example.com/taken") }
        #expect(body(await router.respond(to: Request(method: .GET, path: "/a")))["type"] == "about:blank")
        #expect(body(await router.respond(to: Request(method: .GET, path: "/typed")))["type"] == "https://example.com/taken")
        router.problemTypeNamespace = "urn:example:"
        #expect(body(await router.respond(to: Request(method: .GET, path: "/a")))["type"] == "urn:example:taken")
        #expect(body(await router.respond(to: Request(method: .GET, path: "/typed")))["type"] == "https://example.com/taken")
    }

    @Test("a thrown Problem becomes its response: members in order, headers, extensions")
    func thrownProblem() async {
        var router = TestRouter()
        router.problemTypeNamespace = "urn:routemap:problem:"
        router.get("/a") { _ in
            throw Problem(
                status: .tooManyRequests, code: "rate_limited", title: "Too many requests", detail: "Slow down.",
                headers: ["Retry-After": "3"], extensions: ["limit": 10, "code": "overridden?"])
        }
        let response = await router.respond(to: Request(method: .GET, path: "/a"))
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
    func thrownOtherError() async {
        var router = TestRouter()
        router.get("/a") { _ in throw SecretError() }
        let log = CapturedLog()
        router.logger = log.logger
        let response = await router.respond(to: Request(method: .GET, path: "/a"))
        #expect(response.status == .internalServerError)
        #expect(body(response)["code"] == "internal_error")
        #expect(!text(response).contains("hunter2"))
        #expect(!text(response).contains("SecretError"))
        let errors = log.all.filter { $0.level == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.metadata["error"]?.description.contains("hunter2") == true)
    }

    @Test("Response.json sets the content type; headers are case-insensitive and replaceable")
    func responseAndHeaders() async throws {
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
