import Foundation
import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Synchronization
import Testing

@Suite("HTTPServer over a real socket")
struct ServerTests {
    @Test("port 0 binds a real port; the peer address reaches the request")
    func ephemeralPort() throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 1), responder: TestApp.router(), logger: testLogger)
        #expect(server.port == 0)
        try server.start()
        defer { server.shutdown() }
        #expect(server.port > 0)
        let response = try TestHTTPClient(port: server.port).request("GET", "/peer")
        #expect(response.status == 200)
        #expect(response.json["address"] == "127.0.0.1")
    }

    @Test("GET with a query: decoded arguments, first value wins")
    func query() throws {
        let server = try RunningServer()
        let response = try server.client().request("GET", "/query?b=two%20words&a=1&a=2&plus=x+y&empty=&flag")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.json == ["a": "1", "b": "two words", "empty": "", "flag": "", "plus": "x y"])
    }

    @Test("percent-decoding: hex digits of either case; a stray or short % and %00 stay as sent")
    func percentDecoding() throws {
        let server = try RunningServer()
        let client = try server.client()
        let query = try client.request("GET", "/query?a=%41%6a%6A&b=100%&c=%2&d=%zz1&e=%25&f=a%00b&g=%e2%98%95")
        #expect(query.json == ["a": "Ajj", "b": "100%", "c": "%2", "d": "%zz1", "e": "%", "f": "a%00b", "g": "☕"])
        let items = try client.request("GET", "/v1/%62ills/%61%42/items/x%2")
        #expect(items.json == ["billId": "aB", "lineId": "x%2"])
    }

    @Test("POST JSON is echoed; parameters are captured")
    func postEcho() throws {
        let server = try RunningServer()
        let client = try server.client()
        let sent: JSON = ["name": "latte", "tags": [1, 2.5, true, nil], "nested": ["é": "☕️"]]
        let response = try client.json("POST", "/echo", sent)
        #expect(response.status == 200)
        #expect(response.json["received"] == sent)
        let items = try client.request("GET", "/v1/bills/b_1/items/line%2D7")
        #expect(items.json == ["billId": "b_1", "lineId": "line-7"])
        #expect(try client.request("GET", "/header", headers: [("x-test", "Ünïcode")]).json["value"] == "Ünïcode")
    }

    @Test("requests share one keep-alive connection, also pipelined")
    func keepAlive() throws {
        let server = try RunningServer()
        let client = try server.client()
        let first = try client.request("GET", "/hello")
        let second = try client.json("POST", "/echo", ["n": 1])
        let third = try client.request("GET", "/nope")
        #expect(first.status == 200 && first.text == "hello")
        #expect(second.status == 200)
        #expect(third.status == 404)
        for response in [first, second, third] {
            #expect(response.header("Connection")?.lowercased() != "close")
        }
        #expect(client.connectionsOpened == 1)
        #expect(client.isConnected)

        try client.sendRaw(Array("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /query?a=b HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        #expect(try client.readResponse().text == "hello")
        #expect(try client.readResponse().json == ["a": "b"])
        #expect(client.connectionsOpened == 1)
    }

    @Test("HEAD answers GET's headers without a body")
    func head() throws {
        let server = try RunningServer()
        let client = try server.client()
        let get = try client.request("GET", "/hello")
        // The client reads no body after HEAD: a body sent anyway would garble the next response.
        let head = try client.request("HEAD", "/hello")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == get.header("Content-Length"))
        #expect(head.header("Content-Type") == "text/plain")
        let after = try client.request("GET", "/hello")
        #expect(after.status == 200 && after.text == "hello")
        let raw = try server.client().exchangeRaw(Array("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n".utf8), quietPeriod: .milliseconds(300))
        let text = String(decoding: raw.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200"))
        #expect(text.hasSuffix("\r\n\r\n"), "\(text.debugDescription)")
    }

    @Test("204 and 304 carry no body; a 304's Content-Length is its representation's; the connection stays usable")
    func bodilessStatuses() throws {
        var router = TestRouter()
        let representation = PreparedResponse(Response(headers: ["ETag": "\"v1\""], body: Array("the representation".utf8)))
        router.get("/none") { _ in Response(status: .noContent) }
        router.get("/same") { _ in .notModified(representation, headers: ["ETag": "\"v1\""]) }
        router.get("/hello") { _ in Response(body: Array("hi".utf8)) }
        let server = try RunningServer(router: router)
        let client = try server.client()
        #expect(try client.request("GET", "/none").status == 204)
        let same = try client.request("GET", "/same")
        #expect(same.status == 304)
        #expect(same.header("ETag") == "\"v1\"")
        #expect(same.header("Content-Length") == "18")
        #expect(try client.request("GET", "/hello").text == "hi")
        #expect(client.connectionsOpened == 1)
        // On the wire: the head, and not one byte of the representation after it.
        let raw = try server.client().exchangeRaw(Array("GET /same HTTP/1.1\r\nHost: x\r\n\r\n".utf8), quietPeriod: .milliseconds(300))
        let text = String(decoding: raw.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 304") && text.hasSuffix("\r\n\r\n"), "\(text.debugDescription)")
    }

    @Test("Expect: 100-continue: 100 for an acceptable body, 413 without 100 for an oversized one")
    func expectContinue() throws {
        let server = try RunningServer { $0.maxBodyBytes = 1024 }
        let client = try server.client()
        try client.sendRaw(Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n".utf8))
        let refused = try client.readResponse(method: "POST")
        expectProblem(refused, 413, "payload_too_large")

        let second = try server.client()
        let head = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n"
        let interim = try second.exchangeRaw(Array(head.utf8), quietPeriod: .milliseconds(300))
        #expect(String(decoding: interim.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 100"))
        try second.sendRaw(Array("{}".utf8))
        #expect(try second.readResponse(method: "POST").json["received"] == [:])
    }

    @Test("413 payload_too_large: declared Content-Length over the limit, and chunked bodies past it")
    func payloadTooLarge() throws {
        let server = try RunningServer { $0.maxBodyBytes = 1024 }
        let big = Array(("{\"x\":\"" + String(repeating: "a", count: 2000) + "\"}").utf8)
        let declared = try server.client().request("POST", "/echo", headers: [("Content-Type", "application/json")], body: big)
        expectProblem(declared, 413, "payload_too_large")
        #expect(declared.json["limit"] == 1024)

        let client = try server.client()
        let chunked = try client.request(
            "POST", "/echo", headers: [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")],
            body: TestHTTPClient.chunked(big, chunkSize: 300))
        expectProblem(chunked, 413, "payload_too_large")
        let small = Array(#"{"x":"small"}"#.utf8)
        let fits = try client.request(
            "POST", "/echo", headers: [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")],
            body: TestHTTPClient.chunked(small, chunkSize: 4))
        #expect(fits.status == 200)
        #expect(fits.json["received"] == ["x": "small"])

        let exact = Array(("\"" + String(repeating: "b", count: 1022) + "\"").utf8)
        #expect(exact.count == 1024)
        #expect(try client.request("POST", "/echo", headers: [("Content-Type", "application/json")], body: exact).status == 200)
        // 404 comes before 413: an unknown path is unknown whatever the body.
        expectProblem(try server.client().request("POST", "/nowhere", headers: [("Content-Type", "application/json")], body: big), 404, "not_found")
    }

    @Test("413 with an admission that must wait: a declared body over the limit at once, a chunked one after the wait (401 if refused)")
    func payloadTooLargeWhileAdmissionWaits() async throws {
        // `X-Wait: yes` is admitted after a wait, `X-Wait: no` refused after one.
        var router = TestRouter(defaultAccess: .open, admitWaiting: { request, _ in
            guard let wait = request.headers["X-Wait"] else { return .now(OpenContext()) }
            return .later {
                await Task.yield()
                guard wait == "yes" else { throw Problem(status: .unauthorized, code: "unauthorized", title: "Unauthorized", detail: "No.") }
                return OpenContext()
            }
        })
        router.problemTypeNamespace = TestApp.router().problemTypeNamespace
        router.post("/echo") { request in .json(["bytes": .int(Int64(request.body.count))]) }
        let server = try RunningServer(router: router) { $0.maxBodyBytes = 1024 }
        let big = Array(String(repeating: "a", count: 2000).utf8)
        // The clients block on their sockets off the cooperative threads, which the waiting
        // admissions need.
        for wait in ["yes", "no"] {
            // Declared: answered before the body arrives, where nothing can wait.
            let declared = try await blocking { try server.client().request("POST", "/echo", headers: [("X-Wait", wait)], body: big) }
            expectProblem(declared, 413, "payload_too_large")
            // Chunked: read (and dropped) first, so the pipeline waits for admission.
            let chunked = try await blocking {
                try server.client().request(
                    "POST", "/echo", headers: [("X-Wait", wait), ("Transfer-Encoding", "chunked")], body: TestHTTPClient.chunked(big, chunkSize: 300))
            }
            expectProblem(chunked, wait == "yes" ? 413 : 401, wait == "yes" ? "payload_too_large" : "unauthorized")
        }
        let fits = try await blocking { try server.client().request("POST", "/echo", headers: [("X-Wait", "yes")], body: Array("{}".utf8)) }
        #expect(fits.status == 200)
    }

    @Test("415 unsupported_media_type for bodies whose type the router does not accept; no body, no check")
    func unsupportedMediaType() throws {
        let server = try RunningServer()
        let client = try server.client()
        let body = Array(#"{"a":1}"#.utf8)
        expectProblem(try client.request("POST", "/echo", headers: [("Content-Type", "text/plain")], body: body), 415, "unsupported_media_type")
        expectProblem(try client.request("POST", "/echo", body: body), 415, "unsupported_media_type")
        #expect(try client.request("POST", "/echo", headers: [("Content-Type", "application/json")], body: body).status == 200)
        #expect(try client.request("PATCH", "/echo", headers: [("Content-Type", "text/plain")], body: []).status == 200)
    }

    @Test("404 and 405 are problem+json; 405 lists Allow with HEAD")
    func notFoundAndMethodNotAllowed() throws {
        let server = try RunningServer()
        let client = try server.client()
        expectProblem(try client.request("GET", "/nope"), 404, "not_found")
        expectProblem(try client.request("GET", "/hello/"), 404, "not_found")
        expectProblem(try client.request("GET", "//hello"), 404, "not_found")
        let wrong = try client.request("DELETE", "/hello")
        expectProblem(wrong, 405, "method_not_allowed")
        #expect(wrong.header("Allow") == "GET, HEAD")
        let echo = try client.request("GET", "/echo")
        #expect(echo.header("Allow") == "PATCH, POST")
        expectProblem(try client.request("BREW", "/hello"), 405, "method_not_allowed")
    }

    @Test("a handler's Problem and a handler's crash reach the client as problem+json")
    func handlerErrors() throws {
        let server = try RunningServer()
        let client = try server.client()
        let conflict = try client.request("GET", "/conflict")
        expectProblem(conflict, 409, "bill_not_open")
        #expect(conflict.header("Retry-After") == "5")
        #expect(conflict.json["billId"] == "b1")
        let failure = try client.request("GET", "/fail")
        expectProblem(failure, 500, "internal_error")
        #expect(!failure.text.contains("hunter2"))
        #expect(server.log.all.contains { $0.level == .error && $0.metadata["error"]?.description.contains("hunter2") == true })
        #expect(try client.request("GET", "/hello").status == 200)
    }

    @Test("a response header with a line break is dropped, not sent")
    func headerInjection() throws {
        var router = TestRouter()
        router.get("/inject") { _ in Response(headers: ["X-Name": "a\r\nSet-Cookie: stolen=1", "X-Ok": "yes"]) }
        let server = try RunningServer(router: router)
        let response = try server.client().request("GET", "/inject")
        #expect(response.status == 200)
        #expect(response.header("Set-Cookie") == nil)
        #expect(response.header("X-Name") == nil)
        #expect(response.header("X-Ok") == "yes")
    }

    @Test(
        "unreadable requests answer 400 bad_request",
        arguments: [
            "GET /%FF%FE HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /query?a=%C3%28 HTTP/1.1\r\nHost: x\r\n\r\n",
        ])
    func badRequest(raw: String) throws {
        let server = try RunningServer()
        let client = try server.client()
        try client.sendRaw(Array(raw.utf8))
        expectProblem(try client.readResponse(), 400, "bad_request")
        #expect(try client.request("GET", "/hello").status == 200)
    }

    @Test("invalid UTF-8 bytes in a header value answer 400 bad_request")
    func badHeaderBytes() throws {
        let server = try RunningServer()
        let client = try server.client()
        try client.sendRaw(Array("GET /header HTTP/1.1\r\nHost: x\r\nX-Test: ".utf8) + [0xFF, 0xC0, 0x80] + Array("\r\n\r\n".utf8))
        expectProblem(try client.readResponse(), 400, "bad_request")
    }

    @Test("an HTTP/1.1 request needs exactly one Host field (400 bad_request otherwise); HTTP/1.0 may leave it out")
    func hostField() throws {
        let server = try RunningServer()
        for head in ["GET /hello HTTP/1.1\r\n\r\n", "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"] {
            let client = try server.client()
            try client.sendRaw(Array(head.utf8))
            expectProblem(try client.readResponse(), 400, "bad_request")
        }
        let old = try server.client()
        try old.sendRaw(Array("GET /hello HTTP/1.0\r\n\r\n".utf8))
        #expect(try old.readResponse().status == 200)
    }

    @Test("a request target in absolute form (as a proxy sends it) is routed by its path")
    func absoluteForm() throws {
        let server = try RunningServer()
        for (target, expected) in [
            ("http://x/hello", 200), ("HTTPS://example.com:8443/query?a=1", 200), ("http://x", 404), ("http://x/nowhere", 404),
        ] {
            let client = try server.client()
            try client.sendRaw(Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            let response = try client.readResponse()
            #expect(response.status == expected, "\(target): \(response.status) \(response.text)")
            if target.hasSuffix("?a=1") { #expect(response.json == ["a": "1"]) }
        }
    }

    @Test("%00 in a path is not decoded, so it cannot cut the path short")
    func encodedNul() throws {
        let server = try RunningServer()
        let client = try server.client()
        expectProblem(try client.request("GET", "/hello%00x"), 404, "not_found")
        let items = try client.request("GET", "/v1/bills/a%00b/items/c")
        #expect(items.json["billId"] == "a%00b")
    }

    @Test("garbage bytes never stop the server")
    func garbage() throws {
        let server = try RunningServer { $0.connectionMemoryLimit = 8192 }
        var generator = SystemRandomNumberGenerator()
        let inputs: [[UInt8]] = [
            [0x00, 0x01, 0x02, 0xFF, 0x0D, 0x0A, 0x0D, 0x0A],
            Array("GET / HTTP/1.1\r\n".utf8) + [0xFF, 0xFE] + Array(": x\r\n\r\n".utf8),
            Array("GET /".utf8) + [0xFF, 0xFE, 0x00] + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
            Array("\r\n\r\n\r\n".utf8),
            Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n".utf8),
            Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n".utf8),
            Array("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".utf8),
            Array("GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 20_000) + Array("\r\n\r\n".utf8),
            Array("GET /hello HTTP/9.9\r\n\r\n".utf8),
            (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) },
        ]
        for input in inputs {
            let answer = try server.client().exchangeRaw(input, quietPeriod: .milliseconds(200))
            let text = String(decoding: answer.bytes, as: UTF8.self)
            #expect(answer.bytes.isEmpty || text.hasPrefix("HTTP/1.1 4") || text.hasPrefix("HTTP/1.1 5"), "\(text.prefix(200).debugDescription)")
            #expect(try server.client().request("GET", "/hello").status == 200)
        }
    }

    @Test("start() on a port in use throws with the errno")
    func portInUse() throws {
        let first = try RunningServer()
        let second = HTTPServer(configuration: HTTPServerConfiguration(port: UInt16(first.port), threads: 1), responder: Router(), logger: testLogger)
        let error = try #require(throws: HTTPServerError.self) { try second.start() }
        #expect(error.errorNumber == EADDRINUSE, "\(error)")
        #expect(error.message.contains("\(first.port)"))
        second.shutdown()
        #expect(try first.client().request("GET", "/hello").status == 200)
    }

    @Test("a failed start says what libmicrohttpd logged, one line per message")
    func startFailureCarriesLibraryLog() throws {
        let first = try RunningServer()
        let second = HTTPServer(configuration: HTTPServerConfiguration(port: UInt16(first.port), threads: 1), responder: Router(), logger: testLogger)
        let error = try #require(throws: HTTPServerError.self) { try second.start() }
        let parts = error.message.components(separatedBy: ". libmicrohttpd: ")
        try #require(parts.count == 2, "no line of libmicrohttpd's in: \(error.message)")
        #expect(parts[1].contains("\(first.port)") && !parts[1].contains("\n"), "\(error.message)")
    }

    @Test("bad configurations are refused at start", arguments: ["localhost", "999.0.0.1", "", "1.2.3.4:80"])
    func badHost(host: String) {
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: host, port: 0), responder: Router(), logger: testLogger)
        #expect(throws: HTTPServerError.self) { try server.start() }
    }

    @Test("starting twice is refused; shutdown is idempotent")
    func lifecycle() throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 1), responder: TestApp.router(), logger: testLogger)
        server.shutdown()
        try server.start()
        #expect(throws: HTTPServerError.self) { try server.start() }
        server.shutdown()
        server.shutdown()
        #expect(throws: HTTPServerError.self) { try server.start() }
    }

    @Test("binds IPv6 literals", .enabled(if: ipv6LoopbackWorks()))
    func ipv6() throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "::1", port: 0, threads: 1), responder: TestApp.router(), logger: testLogger)
        try server.start()
        defer { server.shutdown() }
        let response = try TestHTTPClient(host: "::1", port: server.port).request("GET", "/peer")
        #expect(response.json["address"] == "::1")
        #expect(throws: TestHTTPClientError.self) { try TestHTTPClient(host: "127.0.0.1", port: server.port) }
    }

    @Test("on a dual-stack socket an IPv4 peer is reported as IPv4", .enabled(if: ipv6LoopbackWorks()))
    func dualStackPeer() throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "::", port: 0, threads: 1), responder: TestApp.router(), logger: testLogger)
        try server.start()
        defer { server.shutdown() }
        #expect(try TestHTTPClient(host: "127.0.0.1", port: server.port).request("GET", "/peer").json["address"] == "127.0.0.1")
        #expect(try TestHTTPClient(host: "::1", port: server.port).request("GET", "/peer").json["address"] == "::1")
    }

    @Test("graceful shutdown: the request in flight is answered, new connections are refused")
    func gracefulShutdown() throws {
        let started = Flag(), stopping = Flag(), finished = Flag()
        var router = TestRouter()
        router.get("/slow") { _ in
            // Still running when the shutdown begins, however slow the machine.
            started.set()
            _ = stopping.wait(timeout: 5)
            usleep(300_000)
            finished.set()
            return .json(["done": true])
        }
        router.get("/hello") { _ in Response(body: Array("hi".utf8)) }
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 2), responder: router, logger: testLogger)
        try server.start()
        let port = server.port
        let idle = try TestHTTPClient(port: port)
        #expect(try idle.request("GET", "/hello").status == 200)

        let slow = Box<Result<TestResponse, any Error>>()
        Thread.detachNewThread { slow.set(Result { try TestHTTPClient(port: port).request("GET", "/slow") }) }
        try #require(started.wait(timeout: 5))

        let duringShutdown = Box<Result<Int, any Error>>()
        Thread.detachNewThread {
            _ = stopping.wait(timeout: 5)
            usleep(150_000)
            duringShutdown.set(Result { try TestHTTPClient(port: port).connectionsOpened })
        }
        let began = ContinuousClock.now
        stopping.set()
        server.shutdown(gracePeriod: .seconds(5))
        let took = ContinuousClock.now - began
        #expect(finished.isSet, "shutdown returned before the request in flight was answered")

        let answer = try #require(slow.wait(timeout: 5)).get()
        #expect(answer.status == 200)
        #expect(answer.json["done"] == true)
        #expect(answer.header("Connection")?.lowercased() == "close")
        #expect(took < .seconds(3), "shutdown waited for the grace period although nothing was in flight (\(took))")
        let refusedDuring = try #require(duringShutdown.wait(timeout: 5))
        #expect(throws: TestHTTPClientError.self) { try refusedDuring.get() }
        #expect(throws: TestHTTPClientError.self) { try TestHTTPClient(port: port) }
        #expect(throws: TestHTTPClientError.self) { try idle.request("GET", "/hello") }
        server.shutdown()
    }
}

/// A one-way flag set from another thread.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .sequentiallyConsistent) }
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
    func wait(timeout seconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !value.load(ordering: .sequentiallyConsistent) {
            if ContinuousClock.now > deadline { return false }
            usleep(1_000)
        }
        return true
    }
}

/// A value handed over from another thread.
final class Box<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    func wait(timeout seconds: Double) -> Value? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while true {
            if let value = value.withLock({ $0 }) { return value }
            if ContinuousClock.now > deadline { return nil }
            usleep(1_000)
        }
    }
}
