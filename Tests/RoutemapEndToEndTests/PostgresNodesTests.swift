import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Several `routemap serve` nodes on one PostgreSQL database, over HTTP: exactly once across
/// nodes, a node killed mid-load, the database restarted under load.
///
/// They run only when `ROUTEMAP_TEST_NODES` is set too (scripts/test runs them on their own,
/// after the other suites): one of them stops the shared test server, which every other test
/// running meanwhile would feel.
@Suite(
    "Several nodes on one PostgreSQL database", .serialized,
    .enabled(if: TestPostgres.isEnabled && ProcessInfo.processInfo.environment["ROUTEMAP_TEST_NODES"] != nil, "needs the test PostgreSQL server to itself"))
struct PostgresNodesTests {
    /// Two nodes on a new database, the second started on the first's.
    private func twoNodes() throws -> (RoutemapProcess, RoutemapProcess) {
        let first = try RoutemapProcess()
        do {
            return (first, try RoutemapProcess(databasePath: first.databasePath))
        } catch {
            first.cleanUp()
            throw error
        }
    }

    /// A checked-out bill of `token`'s device holding one latte (total 517), made on `node`.
    private func checkedOutBill(on node: RoutemapProcess, token: String) throws -> String {
        let client = try TestHTTPClient(port: node.port)
        client.defaultHeaders = [("Authorization", "Bearer \(token)")]
        let id = try #require(client.request("POST", "/v1/bills").json["bill"]?["id"]?.stringValue)
        try #require(try client.json("POST", "/v1/bills/\(id)/items", ["menuItemId": "latte", "quantity": 1]).status == 200)
        try #require(try client.request("POST", "/v1/bills/\(id)/checkout").status == 200)
        return id
    }

    private func count(_ sql: String, in node: RoutemapProcess) throws -> Int {
        Int(try TestPostgres.psql(node.databasePath, sql)) ?? -1
    }

    @Test("50 concurrent pays over two nodes: different keys on one bill, one key on another; one payment each, every other answer a replay or the documented conflict")
    func exactlyOnceAcrossNodes() throws {
        let (a, b) = try twoNodes()
        defer {
            b.cleanUp()
            a.cleanUp()
        }
        let token = try a.enroll(name: "till")
        let manyKeys = try checkedOutBill(on: a, token: token)
        let oneKey = try checkedOutBill(on: b, token: token)
        let body = JSON.object(["method": "cash", "amountMinor": 517, "tenderedMinor": 1_000]).encoded()

        let answers = Collected<(index: Int, response: TestResponse)>()
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for index in 0..<50 {
            let node = index % 2 == 0 ? a : b
            let (bill, key) = index % 4 < 2 ? (manyKeys, "pay-\(index)") : (oneKey, "the-one-key")
            DispatchQueue.global().async(group: group) {
                guard let client = try? TestHTTPClient(port: node.port, timeout: .seconds(30)) else { return }
                start.wait()
                let response = try? client.request(
                    "POST", "/v1/bills/\(bill)/pay",
                    headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json"), ("Idempotency-Key", key)], body: body)
                if let response { answers.append((index, response)) }
            }
        }
        Thread.sleep(forTimeInterval: 0.2)  // every client connected, then all at once
        for _ in 0..<50 { start.signal() }
        group.wait()
        let all = answers.all
        #expect(all.count == 50)

        for (bill, sameKey) in [(manyKeys, false), (oneKey, true)] {
            let mine = all.filter { (($0.index % 4 < 2) ? manyKeys : oneKey) == bill }.map(\.response)
            let performed = mine.filter { $0.status == 200 && $0.header("Idempotent-Replayed") == nil }
            #expect(performed.count == 1, "bill \(bill): \(mine.map(\.status))")
            let paymentId = performed.first?.json["payment"]?["id"]?.stringValue
            for response in mine where !(response.status == 200 && response.header("Idempotent-Replayed") == nil) {
                if sameKey {
                    // The same key: the recorded answer again, or 409 while another node still runs it.
                    let replayed = response.status == 200 && response.header("Idempotent-Replayed") == "true"
                        && response.json["payment"]?["id"]?.stringValue == paymentId
                    let inFlight = response.status == 409 && response.json["code"]?.stringValue == "idempotency_key_in_flight"
                    #expect(replayed || inFlight, "\(response)")
                } else {
                    // Another key: the bill is paid already (409, recorded under that key).
                    #expect(response.status == 409 && response.json["code"]?.stringValue == "bill_not_checked_out", "\(response)")
                }
            }
            #expect(try count("SELECT count(*) FROM payments WHERE bill_id = '\(bill)'", in: a) == 1)
        }
        // One next bill per payment, nothing else: the two bills paid, two new open ones.
        #expect(try count("SELECT count(*) FROM bills WHERE status = 'paid'", in: a) == 2)
        #expect(try count("SELECT count(*) FROM payments", in: a) == 2)
        // Every key recorded once: a different key per request on the first bill, one on the second.
        let keys = try TestPostgres.psql(a.databasePath, "SELECT key || ' ' || device_id || ' ' || substr(convert_from(answer, 'UTF8'), 1, 12) FROM idempotency_keys ORDER BY key")
        #expect(keys.split(separator: "\n").count == (0..<50).filter { $0 % 4 < 2 }.count + 1, "\(keys)")
    }

    @Test("a read on one node answers with what the other committed just before: the bill and the launch's current bill")
    func readsSeeTheOtherNode() throws {
        let (a, b) = try twoNodes()
        defer {
            b.cleanUp()
            a.cleanUp()
        }
        let token = try a.enroll(name: "till")
        let (reader, writer) = (try TestHTTPClient(port: a.port), try TestHTTPClient(port: b.port))
        for client in [reader, writer] { client.defaultHeaders = [("Authorization", "Bearer \(token)")] }
        var bill = try #require(writer.request("POST", "/v1/bills").json["bill"]?["id"]?.stringValue)
        for round in 1...20 {
            // Read twice on a (the second may come from its cache), then change the bill on b.
            for _ in 1...2 { try #require(try reader.request("GET", "/v1/bills/\(bill)").status == 200) }
            let added = try writer.json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "latte", "quantity": 1])
            let version = try #require(added.json["bill"]?["version"]?.int64Value)
            let read = try reader.request("GET", "/v1/bills/\(bill)")
            #expect(read.json["version"]?.int64Value == version, "round \(round): \(read)")

            // Every fifth round b opens a new bill, and a's launch must start from it.
            guard round % 5 == 0 else { continue }
            _ = try reader.request("GET", "/v1/launch")
            bill = try #require(writer.request("POST", "/v1/bills").json["bill"]?["id"]?.stringValue)
            let launch = try reader.request("GET", "/v1/launch")
            #expect(launch.status == 200)
            #expect(launch.text.contains(bill), "round \(round): the launch after b opened \(bill) is not about it")
        }
    }

    @Test("kill -9 of one node mid-load: the other keeps serving, and an interrupted pay retried on it is performed or replayed once")
    func killOneNode() throws {
        let (a, b) = try twoNodes()
        defer {
            b.cleanUp()
            a.cleanUp()
        }
        let onA = try NodeTills(a, count: 3)
        let onB = try NodeTills(b, count: 3)
        onA.waitForPayments(5)
        // Kill while a pay is on its way to A, so at least one is interrupted.
        onA.waitForPayInFlight()
        kill(a.process.processIdentifier, SIGKILL)
        a.process.waitUntilExit()
        onA.stop()
        let paidOnB = onB.acknowledged.all.count
        onB.waitForPayments(paidOnB + 5)
        #expect(onB.acknowledged.all.count >= paidOnB + 5, "B stopped serving when A died")
        onB.stop()

        let interrupted = onA.interrupted.all
        #expect(!interrupted.isEmpty)
        for pay in interrupted {
            let client = try TestHTTPClient(port: b.port)
            let retry = try client.request(
                "POST", "/v1/bills/\(pay.billId)/pay",
                headers: [("Authorization", "Bearer \(pay.token)"), ("Content-Type", "application/json"), ("Idempotency-Key", pay.key)],
                body: pay.request)
            #expect(retry.status == 200, "\(retry)")
            #expect(try count("SELECT count(*) FROM payments WHERE bill_id = '\(pay.billId)'", in: b) == 1)
        }
        try expectConsistent(acknowledged: onA.acknowledged.all + onB.acknowledged.all, in: b)
    }

    @Test("PostgreSQL restarted under load: 503 with Retry-After while it is down, /healthz unavailable, both nodes reconnect, no acknowledged payment lost")
    func databaseRestart() throws {
        let (a, b) = try twoNodes()
        defer {
            b.cleanUp()
            a.cleanUp()
        }
        let tills = [try NodeTills(a, count: 2, keepGoing: true), try NodeTills(b, count: 2, keepGoing: true)]
        for till in tills { till.waitForPayments(3) }

        // Enrolled and connected while the database answers, with a launch read (twice: the
        // second may come from the node's cache).
        let clients = [try a.client(), try b.client()]
        for client in clients {
            try #require(try client.request("GET", "/healthz").status == 200)
            for _ in 1...2 { try #require(try client.request("GET", "/v1/launch").status == 200) }
        }
        // Immediate: no checkpoint first, so a change acknowledged without a durable commit
        // (synchronous_commit off) would be lost: a payment is counted missing below, a
        // checkout makes its till's pay fail (`bill_not_checked_out`), and the till stops.
        try TestPostgres.control(["stop", "-m", "immediate"])
        var restarted = false
        defer { if !restarted { try? TestPostgres.control(["start"]) } }
        for client in clients {
            let health = try client.request("GET", "/healthz")
            #expect(health.status == 503 && health.json["code"]?.stringValue == "unavailable", "\(health)")
            #expect(health.header("Retry-After") != nil)
            // A read: a node that read this device's bill before must not answer from memory.
            let launch = try client.request("GET", "/v1/launch")
            #expect(launch.status == 503 && launch.json["code"]?.stringValue == "database_unavailable", "\(launch)")
            let change = try client.request("POST", "/v1/bills")
            #expect(change.status == 503 && change.json["code"]?.stringValue == "database_unavailable", "\(change)")
            #expect(change.header("Content-Type") == "application/problem+json")
            #expect(change.header("Retry-After") != nil)
        }
        Thread.sleep(forTimeInterval: 0.5)  // the tills meanwhile get 503s and keep trying
        try TestPostgres.control(["start"])
        restarted = true

        // Both nodes reconnect by themselves and serve again.
        for client in clients {
            let deadline = Date().addingTimeInterval(15)
            var status = 0
            while Date() < deadline {
                status = (try? client.request("GET", "/healthz").status) ?? 0
                if status == 200 { break }
                Thread.sleep(forTimeInterval: 0.1)
                try? client.reconnect()
            }
            #expect(status == 200, "a node did not reconnect")
        }
        let before = tills.map { $0.acknowledged.all.count }
        for (till, count) in zip(tills, before) { till.waitForPayments(count + 3) }
        for till in tills { till.stop() }
        #expect(
            zip(tills, before).allSatisfy { $0.acknowledged.all.count >= $1 + 3 },
            "the tills did not pay again after the restart; tills that stopped: \(tills.flatMap { $0.quits.all })")
        #expect(tills.contains { $0.unavailable.all.count > 0 }, "no till saw the database down")
        try expectConsistent(acknowledged: tills.flatMap { $0.acknowledged.all }, in: a)
    }

    @Test("a node started while PostgreSQL is down waits for it (a log line per attempt), and serves once it is up")
    func startsBeforeTheDatabase() throws {
        let url = try TestPostgres.newDatabase()
        defer { TestPostgres.dropDatabase(url) }
        try TestPostgres.control(["stop", "-m", "fast"])
        var restarted = false
        defer { if !restarted { try? TestPostgres.control(["start"]) } }

        let child = try RoutemapChild([
            "serve", "--port", "0", "--database-url", url, "--database-wait", "300", "--log-format", "text",
            "--migrations", RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations").path,
            "--public", RoutemapProcess.repositoryRoot.appendingPathComponent("Public").path,
        ])
        defer { child.killIfRunning() }
        let process = child.process
        try #require(child.waitForOutput("trying again", timeout: 60), "\(child.outputText)")
        #expect(!child.outputText.contains("listening on"))

        try TestPostgres.control(["start"])
        restarted = true
        let listening = Date().addingTimeInterval(120)
        var port: Int?
        while port == nil, process.isRunning, Date() < listening {
            if let range = child.outputText.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                port = Int(child.outputText[range].split(separator: ":").last ?? "")
            } else {
                usleep(20_000)
            }
        }
        let served = try #require(port, "\(child.outputText)")
        #expect(try TestHTTPClient(port: served).request("GET", "/healthz").status == 200)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(child.outputText)")
    }

    /// Every acknowledged payment is in the database once, with its bill paid; every paid bill
    /// has exactly one payment.
    private func expectConsistent(acknowledged: [NodeTills.Paid], in node: RoutemapProcess) throws {
        #expect(!acknowledged.isEmpty)
        let ids = acknowledged.map { "'\($0.paymentId)'" }.joined(separator: ",")
        #expect(try count("SELECT count(*) FROM payments p JOIN bills b ON b.id = p.bill_id WHERE b.status = 'paid' AND p.id IN (\(ids))", in: node) == acknowledged.count)
        #expect(try count("SELECT count(*) FROM bills b WHERE b.status = 'paid' AND (SELECT count(*) FROM payments p WHERE p.bill_id = b.id) != 1", in: node) == 0)
        #expect(try count("SELECT count(*) FROM payments p JOIN bills b ON b.id = p.bill_id WHERE b.status != 'paid'", in: node) == 0)
    }
}

/// Tills (a device each) running order cycles against one node, on threads of their own,
/// noting each payment acknowledged and each pay whose answer never came (the node died).
final class NodeTills: Sendable {
    struct Paid: Sendable {
        let token: String
        let billId: String
        let key: String
        let paymentId: String
        let request: [UInt8]
    }

    let acknowledged = Collected<Paid>()
    /// Pays sent whose answer never came.
    let interrupted = Collected<Paid>()
    /// 503 `database_unavailable` answers seen.
    let unavailable = Collected<Int>()
    /// Why each till that stopped by itself stopped: the answer or error it could not go on from.
    let quits = Collected<String>()
    private let paysInFlight = Collected<Int>()
    private let stopped = Collected<Bool>()
    private let group = DispatchGroup()

    /// - Parameter keepGoing: whether a till carries on after a 503 (retrying the same step
    ///   with the same key), instead of stopping at the first answer that is not a success.
    init(_ node: RoutemapProcess, count: Int, keepGoing: Bool = false) throws {
        let tokens = try (0..<count).map { try node.enroll(name: "till \($0)") }
        for token in tokens {
            DispatchQueue.global().async(group: group) { [self] in
                cycles(port: node.port, token: token, keepGoing: keepGoing)
            }
        }
    }

    private var isStopped: Bool { !stopped.all.isEmpty }

    /// New bill, two items, checkout, pay, until stopped or the node goes away.
    private func cycles(port: Int, token: String, keepGoing: Bool) {
        guard let client = try? TestHTTPClient(port: port, timeout: .seconds(10)) else {
            quits.append("could not connect")
            return
        }
        client.defaultHeaders = [("Authorization", "Bearer \(token)")]
        /// Sends until a success (2xx), retrying 503s with the same key when `keepGoing`.
        func send(_ method: String, _ path: String, _ body: [UInt8]? = nil) throws -> TestResponse? {
            let key = UUID().uuidString
            while !isStopped {
                var headers = [("Idempotency-Key", key)]
                if body != nil { headers.append(("Content-Type", "application/json")) }
                let response = try client.request(method, path, headers: headers, body: body)
                if (200..<300).contains(response.status) { return response }
                guard keepGoing, response.status == 503 else {
                    quits.append("\(method) \(path): \(response)")
                    return nil
                }
                if response.json["code"]?.stringValue == "database_unavailable" { unavailable.append(response.status) }
                Thread.sleep(forTimeInterval: 0.05)
                if !client.isConnected { try client.reconnect() }
            }
            return nil
        }
        while !isStopped {
            do {
                guard let created = try send("POST", "/v1/bills"), let billId = created.json["bill"]?["id"]?.stringValue else { return }
                for item in ["latte", "croissant"] {
                    let body = JSON.object(["menuItemId": .string(item), "quantity": 1]).encoded()
                    guard try send("POST", "/v1/bills/\(billId)/items", body) != nil else { return }
                }
                guard let checkout = try send("POST", "/v1/bills/\(billId)/checkout"),
                    let total = checkout.json["bill"]?["totalMinor"]?.int64Value
                else { return }
                let key = "pay-\(UUID().uuidString)"
                let body = JSON.object(["method": "card", "amountMinor": .int(total)]).encoded()
                let pay = Paid(token: token, billId: billId, key: key, paymentId: "", request: body)
                var answer: TestResponse?
                while !isStopped {
                    paysInFlight.append(1)
                    do {
                        answer = try client.request(
                            "POST", "/v1/bills/\(billId)/pay", headers: [("Content-Type", "application/json"), ("Idempotency-Key", key)],
                            body: body)
                    } catch {
                        interrupted.append(pay)
                        quits.append("pay: \(error)")
                        return  // the node died with the pay on its way
                    }
                    guard keepGoing, answer?.status == 503 else { break }
                    if answer?.json["code"]?.stringValue == "database_unavailable" { unavailable.append(503) }
                    Thread.sleep(forTimeInterval: 0.05)
                }
                guard let answer, answer.status == 200, let paymentId = answer.json["payment"]?["id"]?.stringValue else {
                    if !isStopped { quits.append("pay: \(answer.map { "\($0)" } ?? "no answer")") }
                    return
                }
                acknowledged.append(Paid(token: token, billId: billId, key: key, paymentId: paymentId, request: body))
            } catch {
                if !isStopped { quits.append("\(error)") }
                return  // the node went away
            }
        }
    }

    /// Waits until `count` payments were acknowledged, or a minute went by.
    func waitForPayments(_ count: Int) {
        let deadline = Date().addingTimeInterval(60)
        while acknowledged.all.count < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// Waits until a till has just sent a pay (or ten seconds went by).
    func waitForPayInFlight() {
        let seen = paysInFlight.all.count
        let deadline = Date().addingTimeInterval(10)
        while paysInFlight.all.count == seen, Date() < deadline { Thread.sleep(forTimeInterval: 0.0005) }
    }

    /// Stops every till and waits for them.
    func stop() {
        stopped.append(true)
        group.wait()
    }
}
