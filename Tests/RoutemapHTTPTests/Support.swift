import Logging
import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Synchronization
import Testing

/// A server on 127.0.0.1, port 0, stopped when this goes away.
final class RunningServer {
    let server: HTTPServer
    let log: CapturedLog

    init(router: TestRouter = TestApp.router(), configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, threads: 2)
        configure(&configuration)
        log = CapturedLog()
        var router = router
        router.logger = log.logger
        server = HTTPServer(configuration: configuration, responder: router, logger: log.logger)
        try server.start()
    }

    deinit { server.shutdown(gracePeriod: .seconds(2)) }

    var port: Int { server.port }

    /// A client that waits up to 30 seconds for each answer. An answer that a suspended handler
    /// or a waiting admission gives runs on Swift concurrency's threads, two on a 2-core machine,
    /// which other suites' blocking tests can hold for seconds while the whole run is under way
    /// (5 seconds was seen to be too short once in CI). A hang still fails, later.
    func client() throws -> TestHTTPClient {
        try TestHTTPClient(host: "127.0.0.1", port: port, timeout: .seconds(30))
    }
}

/// For servers whose log no test reads.
let testLogger = Logger(label: "routemap.tests")

/// A logger whose messages the test can read.
final class CapturedLog: Sendable {
    let entries = Mutex<[(level: Logger.Level, message: String, metadata: Logger.Metadata)]>([])

    var logger: Logger {
        Logger(label: "test") { _ in Handler(log: self) }
    }

    var all: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] { entries.withLock { $0 } }

    struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.entries.withLock { $0.append((event.level, event.message.description, event.metadata ?? [:])) }
        }
    }
}

struct SecretError: Error, CustomStringConvertible {
    var description: String { "database password is hunter2" }
}

/// The routes the server tests talk to.
enum TestApp {
    static func router() -> TestRouter {
        var router = TestRouter()
        router.problemTypeNamespace = "urn:routemap:problem:"
        router.acceptsBody = { $0 == "application/json" }
        router.get("/hello") { _ in Response(status: .ok, headers: ["Content-Type": "text/plain"], body: Array("hello".utf8)) }
        router.get("/query") { request in
            .json(.object(JSONObject(request.query.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) })))
        }
        router.post("/echo") { request in
            let value = request.body.isEmpty ? JSON.null : try JSON.parse(request.body)
            return .json(["received": value, "bytes": .int(Int64(request.body.count))])
        }
        router.patch("/echo") { request in .json(["bytes": .int(Int64(request.body.count))]) }
        router.get("/v1/bills/{billId}/items/{lineId}") { request in
            .json(["billId": .string(request.parameters["billId"] ?? ""), "lineId": .string(request.parameters["lineId"] ?? "")])
        }
        router.get("/peer") { request in .json(["address": request.remoteAddress.map(JSON.string) ?? .null]) }
        router.get("/header") { request in .json(["value": request.headers["X-Test"].map(JSON.string) ?? .null]) }
        router.get("/fail") { _ in throw SecretError() }
        router.get("/conflict") { _ in
            throw Problem(
                status: .conflict, code: "bill_not_open", title: "Bill not open", detail: "The bill is paid.",
                headers: ["Retry-After": "5"], extensions: ["billId": "b1"])
        }
        return router
    }
}

/// The routers these tests build: every route open.
typealias TestRouter = Router<OpenContext>

extension Router where Context == OpenContext {
    // Routes answered at once on the server's thread: these suites test the server's reading,
    // limits and answers, and drive it with blocking sockets from Swift's cooperative threads,
    // which suspending handlers would need too. `SuspendedHandlerTests` covers suspension.

    mutating func get(_ pattern: String, use handler: @escaping @Sendable (Request) throws -> Response) {
        on(.GET, pattern, access: .open, immediately: { request, _ in try handler(request) })
    }

    mutating func post(_ pattern: String, use handler: @escaping @Sendable (Request) throws -> Response) {
        on(.POST, pattern, access: .open, immediately: { request, _ in try handler(request) })
    }

    mutating func patch(_ pattern: String, use handler: @escaping @Sendable (Request) throws -> Response) {
        on(.PATCH, pattern, access: .open, immediately: { request, _ in try handler(request) })
    }

    mutating func delete(_ pattern: String, use handler: @escaping @Sendable (Request) throws -> Response) {
        on(.DELETE, pattern, access: .open, immediately: { request, _ in try handler(request) })
    }

    /// A route whose handler suspends (it runs with the connection suspended).
    mutating func getSuspending(_ pattern: String, use handler: @escaping @Sendable (Request) async throws -> Response) {
        on(.GET, pattern, access: .open) { request, _ in try await handler(request) }
    }
}
