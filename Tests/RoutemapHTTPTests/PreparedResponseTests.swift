import Foundation
import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Testing

@Suite("PreparedResponse over a real socket")
struct PreparedResponseTests {
    static let menu = PreparedResponse(
        Response(headers: ["ETag": "\"v1\"", "Content-Type": "application/json"], body: Array(#"{"items":[]}"#.utf8)))

    static func router() -> TestRouter {
        var router = TestRouter()
        router.problemTypeNamespace = "urn:routemap:problem:"
        router.get("/prepared") { _ in menu.response }
        router.get("/changed") { _ in
            var response = menu.response
            response.headers.add(name: "X-Extra", value: "1")
            return response
        }
        router.get("/rebodied") { _ in
            var response = menu.response
            response.body = Array("{}".utf8)
            return response
        }
        router.get("/restatused") { _ in
            var response = menu.response
            response.status = HTTPStatus(code: 202)
            return response
        }
        router.get("/refused") { _ in
            PreparedResponse(Response(headers: ["X-Name": "a\r\nSet-Cookie: stolen=1", "X-Ok": "yes"])).response
        }
        router.get("/invalid") { _ in PreparedResponse(Response(status: HTTPStatus(code: 42))).response }
        return router
    }

    @Test("answered many times on one connection, HEAD without its body; the object may go away meanwhile")
    func repeated() throws {
        let server = try RunningServer(router: Self.router())
        let client = try server.client()
        for _ in 0..<50 {
            let response = try client.request("GET", "/prepared")
            #expect(response.status == 200)
            #expect(response.text == #"{"items":[]}"#)
            #expect(response.header("ETag") == "\"v1\"")
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("Content-Length") == "12")
            #expect(response.header("Connection")?.lowercased() != "close")
        }
        let head = try client.request("HEAD", "/prepared")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == "12")
        #expect(try client.request("GET", "/prepared").text == #"{"items":[]}"#)
        #expect(client.connectionsOpened == 1)

        var router = TestRouter()
        router.get("/once") { _ in PreparedResponse(Response(body: Array("short-lived".utf8))).response }
        let other = try RunningServer(router: router)
        let again = try other.client()
        for _ in 0..<20 { #expect(try again.request("GET", "/once").text == "short-lived") }
    }

    @Test("a response changed after being taken is sent as changed")
    func changed() throws {
        let server = try RunningServer(router: Self.router())
        let client = try server.client()
        let extra = try client.request("GET", "/changed")
        #expect(extra.header("X-Extra") == "1")
        #expect(extra.header("ETag") == "\"v1\"")
        #expect(extra.text == #"{"items":[]}"#)
        let rebodied = try client.request("GET", "/rebodied")
        #expect(rebodied.text == "{}")
        #expect(rebodied.header("Content-Length") == "2")
        #expect(try client.request("GET", "/restatused").status == 202)
    }

    @Test("what libmicrohttpd refuses is handled as for any response: bad header fields dropped, bad status 500")
    func refused() throws {
        let server = try RunningServer(router: Self.router())
        let client = try server.client()
        let response = try client.request("GET", "/refused")
        #expect(response.status == 200)
        #expect(response.header("Set-Cookie") == nil)
        #expect(response.header("X-Name") == nil)
        #expect(response.header("X-Ok") == "yes")
        expectProblem(try client.request("GET", "/invalid"), 500, "internal_error")
    }

    @Test("while the server shuts down a prepared response carries Connection: close")
    func shutdown() throws {
        let started = Flag(), stopping = Flag()
        var router = TestRouter()
        router.get("/slow") { _ in
            // Answered only once the shutdown has begun, however slow the machine.
            started.set()
            _ = stopping.wait(timeout: 5)
            usleep(200_000)
            return Self.menu.response
        }
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 2), responder: router, logger: testLogger)
        try server.start()
        let port = server.port
        let slow = Box<Result<TestResponse, any Error>>()
        Thread.detachNewThread { slow.set(Result { try TestHTTPClient(port: port).request("GET", "/slow") }) }
        try #require(started.wait(timeout: 5))
        stopping.set()
        server.shutdown(gracePeriod: .seconds(5))
        let answer = try #require(slow.wait(timeout: 5)).get()
        #expect(answer.status == 200)
        #expect(answer.text == #"{"items":[]}"#)
        #expect(answer.header("Connection")?.lowercased() == "close")
    }
}
