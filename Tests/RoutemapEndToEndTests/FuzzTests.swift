import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Synchronization
import Testing

extension HeavySuites {
    /// A bounded fuzzer of raw bytes against the real binary. Each run prints its seed;
    /// `ROUTEMAP_FUZZ_SEED=<seed>` replays the run, adding `ROUTEMAP_FUZZ_CASE=<index>` replays
    /// one case alone (and prints its bytes). `ROUTEMAP_FUZZ_CASES` changes the count.
    @Suite("Fuzzing the real server with raw bytes")
    struct FuzzTests {
        static let defaultCases = 16_000
        static let workers = 4

        @Test("generated hostile requests never get a 5xx, 4xx from routemap are problem+json, and the server keeps answering")
        func fuzz() throws {
            let environment = ProcessInfo.processInfo.environment
            let seed = environment["ROUTEMAP_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
            let onlyCase = environment["ROUTEMAP_FUZZ_CASE"].flatMap { Int($0) }
            let caseCount = environment["ROUTEMAP_FUZZ_CASES"].flatMap { Int($0) } ?? Self.defaultCases
            print("fuzz: seed \(seed) (replay with ROUTEMAP_FUZZ_SEED=\(seed); one case with ROUTEMAP_FUZZ_CASE=<index> too)")

            let process = try RoutemapProcess()
            defer { process.cleanUp() }
            let generator = FuzzGenerator(fixtures: try Self.fixtures(process))
            let report = FuzzReport(seed: seed)
            let indices = onlyCase.map { [$0] } ?? Array(0..<caseCount)
            let clock = ContinuousClock()
            let began = clock.now

            // The server must keep answering /healthz, on a new connection each time, all along.
            let monitor = HealthMonitor(port: process.port)
            let monitorThread = Thread { monitor.run(until: { report.finished }) }
            monitorThread.start()

            // Workers on threads of their own (not `concurrentPerform`, which runs one per core):
            // most of a case's time is spent waiting on the server.
            let group = DispatchGroup()
            for worker in 0..<Self.workers {
                group.enter()
                Thread.detachNewThread {
                    defer { group.leave() }
                    var runner = CaseRunner(port: process.port, report: report)
                    for index in stride(from: worker, to: indices.count, by: Self.workers) {
                        guard !report.stopped else { return }
                        let fuzzCase = generator.make(indices[index], seed: seed)
                        if onlyCase != nil { print("fuzz: case \(fuzzCase.index) (\(fuzzCase.kind)): \(preview(fuzzCase.bytes, 2000))") }
                        runner.run(fuzzCase)
                        if !process.process.isRunning {
                            report.fail(fuzzCase, "the server exited (status \(process.process.terminationStatus)) after this case")
                            report.stop()
                        }
                    }
                }
            }
            group.wait()
            report.finish()
            monitor.finished.wait()
            let took = clock.now - began

            // Afterwards: still alive, still answering, and it stops cleanly.
            let health = try TestHTTPClient(port: process.port, timeout: .seconds(5)).request("GET", "/healthz")
            #expect(health.status == 200, "after fuzzing, /healthz answered \(health.status)")
            #expect(process.process.isRunning)
            print(report.summary(cases: indices.count, took: took, health: monitor.summary))
            #expect(monitor.failures.isEmpty, "health checks failed during fuzzing: \(monitor.failures.prefix(5))")
            #expect(report.executed == indices.count, "only \(report.executed) of \(indices.count) cases ran")
            let lingering = report.lingering
            #expect(
                lingering.count <= max(5, lingering.of / 100),
                "\(lingering.count) of \(lingering.of) half-closed connections got neither an answer nor a close: \(lingering.examples)")
            let failures = report.failures
            #expect(
                failures.isEmpty,
                "\(failures.count) fuzz case(s) broke the rules (seed \(seed)):\n\(failures.prefix(12).map(\.description).joined(separator: "\n"))")
            if !failures.isEmpty { print("fuzz: server output (tail):\n\(process.outputText.suffix(3000))") }
            let status = process.stop()
            #expect(status == 0, "the server did not stop cleanly after fuzzing: exit status \(status)")
        }

        /// A token and bills in each state, made through the API.
        static func fixtures(_ process: RoutemapProcess) throws -> FuzzFixtures {
            let client = try process.client()
            func open() throws -> String {
                let response = try client.request("POST", "/v1/bills")
                try #require(response.status == 201, "\(response.text)")
                return try #require(response.json["bill"]?["id"]?.stringValue)
            }
            func add(_ bill: String) throws -> JSON {
                let response = try client.json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "latte", "quantity": 2])
                try #require(response.status == 200, "\(response.text)")
                return try #require(response.json["bill"])
            }
            let openBill = try open()
            let lineId = try #require(try add(openBill)["lines"]?.arrayValue?.first?["lineId"]?.stringValue)
            let checkedOut = try open()
            _ = try add(checkedOut)
            let checkout = try client.request("POST", "/v1/bills/\(checkedOut)/checkout")
            try #require(checkout.status == 200, "\(checkout.text)")
            let total = try #require(checkout.json["bill"]?["totalMinor"]?.int64Value)
            let paid = try open()
            _ = try add(paid)
            try #require(try client.request("POST", "/v1/bills/\(paid)/checkout").status == 200)
            let pay = try client.json(
                "POST", "/v1/bills/\(paid)/pay", ["method": "card", "amountMinor": .int(total)], headers: [("Idempotency-Key", "fixture-pay")])
            try #require(pay.status == 200, "\(pay.text)")
            return FuzzFixtures(
                token: try process.token(), openBill: openBill, lineId: lineId, checkedOutBill: checkedOut, checkedOutTotal: total,
                paidBill: paid)
        }
    }
}

/// Runs cases for one worker: keep-alive cases on one reused connection (a new one when the
/// server closed it), the others each on a new connection closed for sending after the bytes.
struct CaseRunner {
    let port: Int
    let report: FuzzReport
    private var client: TestHTTPClient?

    init(port: Int, report: FuzzReport) {
        self.port = port
        self.report = report
    }

    mutating func run(_ fuzzCase: FuzzCase) {
        defer { report.executedOne() }
        switch fuzzCase.delivery {
        case .keepAlive: runKeptAlive(fuzzCase)
        case .halfClose: runHalfClosed(fuzzCase)
        }
    }

    private mutating func runKeptAlive(_ fuzzCase: FuzzCase) {
        do {
            if client?.isConnected != true { client = try TestHTTPClient(port: port, timeout: .seconds(10)) }
            guard let client else { return }
            do {
                try client.sendRaw(fuzzCase.bytes)
            } catch {
                // Closed while we were still sending (an early 413, say): what came back counts.
                report.closed(fuzzCase)
                self.client = nil
                return
            }
            let method = fuzzCase.methods.first ?? "GET"
            let response = try client.readResponse(method: method)
            let wire = WireResponse(status: response.status, headers: response.headers, body: response.body)
            report.answered(fuzzCase, wire, method: method)
        } catch TestHTTPClientError.closedByPeer(let received) {
            client = nil
            check(received, of: fuzzCase)
        } catch TestHTTPClientError.timedOut(let received) {
            client = nil
            report.fail(fuzzCase, "no complete answer within 10 s on a kept-alive connection; received \(preview(received, 300))")
        } catch {
            client = nil
            report.fail(fuzzCase, "\(error)")
        }
    }

    private func runHalfClosed(_ fuzzCase: FuzzCase) {
        report.halfClosedOne()
        do {
            let exchange = try exchangeHalfClosed(fuzzCase.bytes, port: port, methods: fuzzCase.methods, timeout: .seconds(2))
            if exchange.received.isEmpty, !exchange.closedByServer {
                report.lingered(fuzzCase)
                return
            }
            check(exchange.received, of: fuzzCase)
        } catch {
            report.fail(fuzzCase, "\(error)")
        }
    }

    private func check(_ received: [UInt8], of fuzzCase: FuzzCase) {
        let (responses, _) = parseResponses(received, methods: fuzzCase.methods)
        let finals = responses.filter { !(100..<200).contains($0.status) }
        if finals.isEmpty { report.closed(fuzzCase) }
        for (offset, response) in finals.enumerated() {
            let method = offset < fuzzCase.methods.count ? fuzzCase.methods[offset] : "GET"
            report.answered(fuzzCase, response, method: method)
        }
    }
}

/// What the fuzzer saw, from every worker.
final class FuzzReport: Sendable {
    let seed: UInt64
    private let state = Mutex(State())

    private struct State {
        var executed = 0
        var failures: [FuzzFailure] = []
        var statusClasses: [String: Int] = [:]
        var kinds: [String: Int] = [:]
        var libraryAnswers = 0
        var halfClosed = 0
        var lingered: [String] = []
        var stopped = false
        var finished = false
    }

    init(seed: UInt64) { self.seed = seed }

    var executed: Int { state.withLock { $0.executed } }
    var failures: [FuzzFailure] { state.withLock { $0.failures } }
    var stopped: Bool { state.withLock { $0.stopped } }

    func executedOne() { state.withLock { $0.executed += 1 } }
    func stop() { state.withLock { $0.stopped = true } }
    /// Every worker is done.
    var finished: Bool { state.withLock { $0.finished } }
    func finish() { state.withLock { $0.finished = true } }

    func answered(_ fuzzCase: FuzzCase, _ response: WireResponse, method: String) {
        let kindKey = fuzzCase.kind.split(separator: " ").first.map(String.init) ?? fuzzCase.kind
        state.withLock {
            $0.statusClasses["\(response.status / 100)xx", default: 0] += 1
            $0.kinds[kindKey, default: 0] += 1
            if response.header("Content-Type") == nil, response.status >= 400 { $0.libraryAnswers += 1 }
        }
        if let broken = ruleBroken(by: response, method: method) { fail(fuzzCase, broken) }
    }

    /// A half-closed case got neither an answer nor a close within 2 s. libmicrohttpd 0.9.75
    /// (epoll) sometimes misses a client's end of input: the connection then stays until the
    /// request timeout. Counted, not failed, unless it happens often.
    func lingered(_ fuzzCase: FuzzCase) {
        state.withLock { $0.lingered.append("case \(fuzzCase.index) [\(fuzzCase.kind)]: \(preview(fuzzCase.bytes, 200))") }
    }

    func halfClosedOne() { state.withLock { $0.halfClosed += 1 } }
    var lingering: (count: Int, of: Int, examples: [String]) {
        state.withLock { ($0.lingered.count, $0.halfClosed, Array($0.lingered.prefix(5))) }
    }

    func closed(_ fuzzCase: FuzzCase) {
        state.withLock { $0.statusClasses["closed without answer", default: 0] += 1 }
    }

    func fail(_ fuzzCase: FuzzCase, _ why: String) {
        let failure = FuzzFailure(index: fuzzCase.index, kind: fuzzCase.kind, why: why, bytes: fuzzCase.bytes)
        state.withLock { if $0.failures.count < 200 { $0.failures.append(failure) } }
    }

    func summary(cases: Int, took: Duration, health: String) -> String {
        state.withLock { state in
            let classes = state.statusClasses.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return """
                fuzz: seed \(seed): \(state.executed) of \(cases) cases in \(took.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1)))); \
                answers: \(classes) (\(state.libraryAnswers) 4xx/505 from libmicrohttpd itself); \(health); \
                \(state.lingered.count) of \(state.halfClosed) half-closed connections neither answered nor closed in 2 s; \
                failures: \(state.failures.count)
                """
        }
    }
}

/// One case that broke a rule.
struct FuzzFailure: Sendable, CustomStringConvertible {
    var index: Int
    var kind: String
    var why: String
    var bytes: [UInt8]

    var description: String { "case \(index) [\(kind)]: \(why)\n    bytes: \(preview(bytes, 400))" }
}

/// Asks for /healthz on a new connection every 250 ms; each must answer 200 within 2 s.
final class HealthMonitor: Sendable {
    let port: Int
    let finished = DispatchSemaphore(value: 0)
    private let results = Mutex<(checks: Int, slowest: Duration, failures: [String])>((0, .zero, []))

    init(port: Int) { self.port = port }

    var failures: [String] { results.withLock { $0.failures } }
    var summary: String {
        results.withLock { "\($0.checks) health checks during the run, slowest \($0.slowest.formatted(.units(allowed: [.milliseconds])))" }
    }

    func run(until done: () -> Bool) {
        defer { finished.signal() }
        let clock = ContinuousClock()
        while !done() {
            let began = clock.now
            var failure: String?
            do {
                let response = try TestHTTPClient(port: port, timeout: .seconds(2)).request("GET", "/healthz")
                if response.status != 200 { failure = "status \(response.status)" }
            } catch {
                failure = "\(error)"
            }
            let took = clock.now - began
            results.withLock {
                $0.checks += 1
                $0.slowest = max($0.slowest, took)
                if let failure { $0.failures.append(failure) }
            }
            usleep(250_000)
        }
    }
}

/// `bytes` as an escaped string, cut to `limit` bytes.
func preview(_ bytes: [UInt8], _ limit: Int) -> String {
    let shown = String(decoding: bytes.prefix(limit), as: UTF8.self).debugDescription
    return bytes.count > limit ? "\(shown)… (\(bytes.count) bytes)" : shown
}
