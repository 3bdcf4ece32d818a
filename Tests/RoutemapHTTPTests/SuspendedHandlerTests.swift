import Foundation
import RoutemapHTTP
import RoutemapTestSupport
import Synchronization
import Testing

/// Handlers that suspend: the connection waits without a thread, and the server still bounds,
/// times out, drops and stops them as a production server must.
@Suite("Suspending handlers over a real socket", .serialized)
struct SuspendedHandlerTests {
    /// A router whose `/wait` handler waits until the test opens `gate`, then counts itself
    /// finished; `/hello` answers at once.
    private static func router(_ gate: Gate, finished: Counter) -> TestRouter {
        var router = TestRouter()
        router.problemTypeNamespace = "urn:routemap:problem:"
        router.getSuspending("/wait") { _ in
            await gate.wait()
            finished.increment()
            return Response(body: Array("done".utf8))
        }
        router.getSuspending("/hello") { _ in Response(body: Array("hello".utf8)) }
        // Answered at once: follow-up requests that must not race the short timeouts here.
        router.get("/now") { _ in Response(body: Array("now".utf8)) }
        return router
    }

    @Test("past the limit of waiting requests the answer is 503 overloaded with Retry-After, at once")
    func backpressure() async throws {
        let gate = Gate(), finished = Counter()
        // A request timeout far beyond the test's: handlers run on Swift concurrency's few
        // threads, which other suites' blocking tests can hold for seconds on a 2-core machine.
        let server = try RunningServer(router: Self.router(gate, finished: finished)) {
            $0.requestsInFlightLimit = 2
            $0.requestTimeout = 120
        }
        let first = try server.client(), second = try server.client()
        try first.sendRaw(Array("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        try second.sendRaw(Array("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        let http = server.server
        try await eventually({ http.requestsWaiting == 2 }, state: { "(waiting: \(http.requestsWaiting), timed out: \(http.handlersTimedOut))" })
        // Connected only now: on a loaded machine the wait above may outlast an idle timeout.
        let third = try server.client()
        let refused = try await blocking { try third.request("GET", "/wait") }
        expectProblem(refused, 503, "overloaded")
        #expect(refused.header("Retry-After") == "1")
        #expect(finished.value == 0)
        await gate.open()
        let answers = try await blocking { [try first.readResponse(), try second.readResponse()] }
        #expect(answers.map(\.status) == [200, 200])
        #expect(answers.map(\.text) == ["done", "done"])
        // Room again: the refused client's next request waits and is answered.
        #expect(try await blocking { try third.request("GET", "/wait") }.status == 200)
        #expect(server.server.requestsWaiting == 0)
    }

    @Test("a handler that outlives the request timeout gets 503 timed_out; it still completes, the connection goes on")
    func timeout() async throws {
        let gate = Gate(), finished = Counter()
        let server = try RunningServer(router: Self.router(gate, finished: finished)) { $0.requestTimeout = 1 }
        let client = try server.client()
        let started = ContinuousClock.now
        let late = try await blocking { try client.request("GET", "/wait") }
        expectProblem(late, 503, "timed_out")
        #expect(late.header("Retry-After") != nil)
        #expect(ContinuousClock.now - started < .seconds(4))
        #expect(server.server.handlersTimedOut == 1)
        #expect(finished.value == 0)
        // The same connection serves the next request.
        let next = try await blocking { try client.request("GET", "/now") }
        #expect(next.text == "now", "\(next)")
        // The handler finishes later; its answer is dropped, nothing is resumed twice.
        await gate.open()
        try await eventually { finished.value == 1 }
        #expect(try await blocking { try client.request("GET", "/now") }.status == 200)
        #expect(server.server.requestsWaiting == 0)
    }

    @Test("a client that leaves while its handler runs: the work completes, the answer is dropped, nothing is left waiting")
    func disconnect() async throws {
        let gate = Gate(), finished = Counter()
        let server = try RunningServer(router: Self.router(gate, finished: finished)) { $0.requestTimeout = 120 }
        let client = try server.client()
        try client.sendRaw(Array("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        try await eventually { [http = server.server] in http.requestsWaiting == 1 }
        client.disconnect()
        await gate.open()
        try await eventually { finished.value == 1 }
        try await eventually { [http = server.server] in http.requestsWaiting == 0 }
        // The server serves on.
        let fresh = try server.client()
        #expect(try await blocking { try fresh.request("GET", "/hello") }.text == "hello")
    }

    @Test("SIGTERM's stop: in-flight handlers that finish within the grace period are answered")
    func gracefulStop() async throws {
        let gate = Gate(), finished = Counter()
        let server = try RunningServer(router: Self.router(gate, finished: finished))
        let client = try server.client()
        try client.sendRaw(Array("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        try await eventually { [http = server.server] in http.requestsWaiting == 1 }
        let http = server.server, stopped = Counter()
        Thread {
            http.shutdown(gracePeriod: .seconds(10))
            stopped.increment()
        }.start()
        // The stop has begun once the listener is closed; it waits for the handler in flight.
        try await eventually { [port = server.port] in (try? TestHTTPClient(host: "127.0.0.1", port: port, timeout: .seconds(1))) == nil }
        try await Task.sleep(for: .milliseconds(200))
        #expect(stopped.value == 0)
        await gate.open()
        let answer = try await blocking { try client.readResponse() }
        #expect(answer.status == 200)
        #expect(answer.text == "done")
        #expect(answer.header("Connection")?.lowercased() == "close")
        try await eventually { stopped.value == 1 }
    }

    @Test("handlers still running when the grace period ends get 503 shutting_down; finishing after the stop resumes nothing")
    func stopAfterGrace() async throws {
        let gate = Gate(), finished = Counter()
        let server = try RunningServer(router: Self.router(gate, finished: finished))
        let client = try server.client()
        try client.sendRaw(Array("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        try await eventually { [http = server.server] in http.requestsWaiting == 1 }
        let http = server.server
        try await blocking { http.shutdown(gracePeriod: .milliseconds(300)) }
        let answer = try await blocking { try client.readResponse() }
        expectProblem(answer, 503, "shutting_down")
        // The daemon is gone; the handler finishing now must not touch its connection.
        await gate.open()
        try await eventually { finished.value == 1 }
        #expect(server.server.requestsWaiting == 0)
    }
    @Test("a request completed while the stop sends its last answers gets 503 shutting_down, not overloaded")
    func requestDuringStop() async throws {
        let gate = Gate(), finished = Counter()
        var router = Self.router(gate, finished: finished)
        router.on(.POST, "/echo", access: .open, use: { request, _ in
            await Task.yield()  // A handler that suspends.
            return Response(body: request.body)
        })
        let server = try RunningServer(router: router) { $0.requestTimeout = 120 }
        let http = server.server
        let waiting = try server.client(), late = try server.client()
        try waiting.sendRaw(Array("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        try await eventually({ http.requestsWaiting == 1 }, state: { "(waiting: \(http.requestsWaiting))" })
        // Half a body: the request is in flight, and the stop waits up to a second for it after
        // answering the handlers still running.
        try late.sendRaw(Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab".utf8))
        try await eventually({ http.requestsInFlight == 2 }, state: { "(in flight: \(http.requestsInFlight))" })
        let stopped = Counter()
        Thread {
            http.shutdown(gracePeriod: .milliseconds(300))
            stopped.increment()
        }.start()
        expectProblem(try await blocking { try waiting.readResponse() }, 503, "shutting_down")
        // The rest of the body, now that no handler can be admitted: the server is stopping, and
        // says so (`overloaded` would tell the client this server takes requests again soon).
        try late.sendRaw(Array("cd".utf8))
        let answer = try await blocking { try late.readResponse() }
        expectProblem(answer, 503, "shutting_down")
        try await eventually { stopped.value == 1 }
        await gate.open()
        try await eventually { finished.value == 1 }
    }

    @Test("a suspending handler starts on the thread the request arrived on; one that never awaits is answered, and the connection goes on")
    func startsWhereTheRequestArrived() async throws {
        let threads = Mutex<[String]>([])
        var router = TestRouter()
        router.problemTypeNamespace = "urn:routemap:problem:"
        router.getSuspending("/at-once") { _ in
            threads.withLock { $0.append(currentThreadName()) }
            return Response(body: Array("at once".utf8))
        }
        router.getSuspending("/refused") { _ in throw Problem.badRequest(detail: "Refused before any await.") }
        router.getSuspending("/after-await") { _ in
            threads.withLock { $0.append(currentThreadName()) }
            // A real suspension, as a commit is: resumed from another thread. (Where the handler
            // goes on is Swift's to choose: a resume that comes before the task has suspended
            // lets it go on on the same thread, so that is not asserted.)
            await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async { resumed.resume() }
            }
            return Response(body: Array("after".utf8))
        }
        let server = try RunningServer(router: router)
        let client = try server.client()
        // One keep-alive connection: an answer given before the handler's first await (the
        // connection resumed while libmicrohttpd's callback that suspended it still runs) leaves
        // the connection usable for the next request.
        for _ in 0..<3 {
            #expect(try await blocking { try client.request("GET", "/at-once") }.text == "at once")
            expectProblem(try await blocking { try client.request("GET", "/refused") }, 400, "bad_request")
        }
        #expect(try await blocking { try client.request("GET", "/after-await") }.text == "after")
        #expect(server.server.requestsWaiting == 0)
        let names = threads.withLock { $0 }
        // libmicrohttpd names its pool threads "MHD-worker".
        #expect(names.count == 4 && names.allSatisfy { $0.hasPrefix("MHD") }, "\(names)")
    }
}

/// Opens once; everyone waiting (and arriving later) goes on.
private actor Gate {
    private var isOpen = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func open() {
        isOpen = true
        for continuation in waiting { continuation.resume() }
        waiting.removeAll()
    }
}

private final class Counter: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .sequentiallyConsistent) }
    func increment() { count.add(1, ordering: .sequentiallyConsistent) }
}

/// Runs blocking socket work on a thread of its own, so it never holds one of Swift's
/// cooperative threads, which the server's suspended handlers need.
func blocking<T: Sendable>(_ work: @escaping () throws -> T) async throws -> T {
    let work = HandedOver(work)
    return try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work.value() }) }.start()
    }
}

/// A value handed to another thread while its owner waits for that thread.
///
/// `@unchecked Sendable`: `blocking` hands the closure (and the clients it captures) to one
/// new thread and stays suspended until that thread is done with it, so no two threads use
/// what it holds at the same time.
private struct HandedOver<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// Waits up to 60 seconds for `condition`, checking it every 10 ms: generous, since the work
/// it waits for runs on Swift concurrency's threads, which other suites' blocking tests can
/// hold for seconds on a 2-core machine. `state` describes what was seen instead.
func eventually(
    _ condition: @escaping @Sendable () -> Bool, state: @escaping @Sendable () -> String = { "" },
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("the condition did not hold within 60 s \(state())", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// The calling thread's name, as Linux keeps it (`/proc/thread-self/comm`); "" when unreadable.
private func currentThreadName() -> String {
    ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
}
