import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// A node whose PostgreSQL server refuses what it asks without being down: writes on a server
/// that became read-only (a standby, or a primary being demoted during a failover), and a
/// statement the server gave up on (a `lock_timeout` a managed database sets). The node answers
/// 503 `database_unavailable` as for a database it cannot reach, never 500, and changes nothing.
/// Each test alters only its own database.
@Suite("A node on a PostgreSQL server that refuses writes or gives up on a statement", .enabled(if: TestPostgres.isEnabled, "about PostgreSQL's answers"))
struct PostgresRefusalTests {
    @Test("a read-only database: a write is 503 database_unavailable and /healthz 503, reads go on; writable again, the node serves writes by itself")
    func readOnly() throws {
        let server = try Server()
        let url = server.process.databasePath
        let bill = try #require(try server.newBill()["id"]?.stringValue)
        try server.add("latte", to: bill)
        let before = try server.bill(bill)
        try #require(try server.get("/healthz").status == 200)

        // As a failover does: the node's connections end, and the server it reaches next is read-only.
        try TestPostgres.alterDatabase(url, "SET default_transaction_read_only = on")
        defer { _ = try? TestPostgres.alterDatabase(url, "RESET default_transaction_read_only") }
        try TestPostgres.disconnectAll(url)
        let writes: [(path: String, body: JSON?)] = [
            ("/v1/bills", nil), ("/v1/bills/\(bill)/items", ["menuItemId": "latte", "quantity": 1]), ("/v1/bills/\(bill)/checkout", nil),
        ]
        for (path, body) in writes {
            let refused = try server.send("POST", path, json: body)
            expectProblem(refused, 503, "database_unavailable")
            #expect(refused.header("Retry-After") != nil, "\(path)")
        }
        // A load balancer takes the node out of rotation: it cannot write.
        let health = try server.get("/healthz")
        expectProblem(health, 503, "unavailable")
        #expect(health.header("Retry-After") != nil)
        #expect(try server.bill(bill) == before)

        try TestPostgres.alterDatabase(url, "RESET default_transaction_read_only")
        try TestPostgres.disconnectAll(url)
        #expect(holdsSoon { try server.get("/healthz").status == 200 })
        #expect(try server.send("POST", "/v1/bills").status == 201)
        #expect(try server.add("latte", to: bill)["lines"]?.array.first?["quantity"]?.int64Value == 2)
    }

    @Test("a lock_timeout on the database: a write waiting on a locked bill is 503 database_unavailable at the timeout, and changes nothing")
    func lockTimeout() throws {
        let server = try Server()
        let url = server.process.databasePath
        let bill = try #require(try server.newBill()["id"]?.stringValue)
        try server.add("latte", to: bill)
        let before = try server.bill(bill)

        try TestPostgres.alterDatabase(url, "SET lock_timeout = '200ms'")
        try TestPostgres.disconnectAll(url)
        let holder = try BackgroundSession(url, holding: "SELECT 1 FROM bills WHERE id = '\(bill)' FOR UPDATE")
        defer { holder.end() }
        let start = ContinuousClock.now
        let writes: [(path: String, body: JSON?)] = [("/v1/bills/\(bill)/items", ["menuItemId": "latte", "quantity": 1]), ("/v1/bills/\(bill)/checkout", nil)]
        for (path, body) in writes {
            let refused = try server.send("POST", path, json: body)
            expectProblem(refused, 503, "database_unavailable")
            #expect(refused.header("Retry-After") != nil, "\(path)")
        }
        // The server's 200 ms each, not the node's own limit of seconds.
        #expect(ContinuousClock.now - start < .seconds(5))
        holder.end()

        #expect(try server.bill(bill) == before)
        // The node's connections are fine: the next write goes through.
        #expect(try server.add("latte", to: bill)["lines"]?.array.first?["quantity"]?.int64Value == 2)
    }

    @Test("writes waiting on one locked bill, more than the node has connections: /healthz answers 200 while they wait, and a write on another bill goes through while the lock is still held")
    func lockedBillLeavesTheNodeServing() throws {
        // Two connections, six writes on the locked bill: three rounds of waiters.
        let server = try Server(arguments: ["--database-connections", "2"])
        let url = server.process.databasePath
        let token = try server.process.token()
        let port = server.process.port
        let locked = try #require(try server.newBill()["id"]?.stringValue)
        let other = try #require(try server.newBill()["id"]?.stringValue)
        try #require(try server.get("/healthz").status == 200)

        let holder = try BackgroundSession(url, holding: "SELECT 1 FROM bills WHERE id = '\(locked)' FOR UPDATE")
        defer { holder.end() }
        let answers = Collected<TestResponse>()
        let group = DispatchGroup()
        for _ in 0..<6 {
            DispatchQueue.global().async(group: group) {
                guard let client = try? TestHTTPClient(port: port, timeout: .seconds(120)) else { return }
                client.defaultHeaders = [("Authorization", "Bearer \(token)")]
                if let response = try? client.json("POST", "/v1/bills/\(locked)/items", ["menuItemId": "latte", "quantity": 1]) {
                    answers.append(response)
                }
            }
        }
        // Both connections are waiting on the lock (the other four writes queue behind them).
        let waiting = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        try #require(holdsSoon { try TestPostgres.psql(url, waiting) == "2" })

        // Asked on a connection of its own: answered before the writes ahead of it in the pool's
        // queue, where a check in that queue comes after the fifth of them.
        let health = try TestHTTPClient(port: port, timeout: .seconds(120)).request("GET", "/healthz")
        let doneAtHealth = answers.all.count
        #expect(health.status == 200, "\(health)")
        #expect(doneAtHealth == 0, "/healthz answered after \(doneAtHealth) of the writes on the locked bill")

        // Behind the six in the node's queue: served while the lock is still held.
        let client = try TestHTTPClient(port: port, timeout: .seconds(120))
        client.defaultHeaders = [("Authorization", "Bearer \(token)")]
        let added = try client.json("POST", "/v1/bills/\(other)/items", ["menuItemId": "latte", "quantity": 1])
        #expect(added.status == 200, "\(added)")
        let holding = "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(holder.name)' AND wait_event = 'PgSleep'"
        #expect(try TestPostgres.psql(url, holding) == "1", "the lock was released before the write on another bill was served")

        // Each write on the locked bill gave up in the database at the node's lock_timeout (a few
        // seconds): 503 database_unavailable, well within the request timeout. Waiting out the
        // statement limit instead, the later ones were answered 503 timed_out by the request
        // timeout while still queued, and committed once the lock was released.
        group.wait()
        let refused = answers.all
        #expect(refused.count == 6)
        for response in refused {
            expectProblem(response, 503, "database_unavailable")
            #expect(response.header("Retry-After") != nil)
        }
        holder.end()
        #expect(try server.bill(locked)["lines"]?.array.isEmpty == true)
    }

    @Test("the database gone: GET /v1/menu/items and /v1/menu/categories both answer 503 database_unavailable, as every read, not the menu the node held")
    func menuWhileTheDatabaseIsGone() throws {
        let (proxy, database, proxied) = try FreezableProxy.inFrontOfNewTestDatabase()
        defer {
            proxy.close()
            TestPostgres.dropDatabase(database)
        }
        let process = try RoutemapProcess(databasePath: proxied)
        defer { process.cleanUp() }
        let client = try process.client()
        let paths = ["/v1/menu/items", "/v1/menu/categories"]
        for path in paths { try #require(try client.request("GET", path).status == 200, "\(path)") }

        // Every connection cut, and new ones refused: as a database server that went down. Once
        // the node has noticed, every menu answer is refused, not only the request that happens
        // to recheck its token that second (the device cache's check, once a second).
        proxy.close()
        var answers: [TestResponse] = []
        let refused = holdsSoon {
            if !client.isConnected { try client.reconnect() }
            answers = try (0..<5).flatMap { _ in try paths.map { try client.request("GET", $0) } }
            return answers.allSatisfy { $0.status == 503 }
        }
        #expect(refused, "\(answers.map(\.status))")
        for answer in answers {
            expectProblem(answer, 503, "database_unavailable")
            #expect(answer.header("Retry-After") != nil)
        }
    }
}
