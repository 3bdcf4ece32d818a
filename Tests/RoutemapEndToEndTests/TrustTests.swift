import Foundation
import GRDB
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// Enrollment, tokens, ownership and idempotency over HTTP against the real binary.
@Suite("Trust, end to end")
struct TrustTests {
    /// Counts rows in the server's database file, read directly (the server may be running:
    /// WAL lets this reader see every committed transaction).
    private func count(_ sql: String, in process: RoutemapProcess) throws -> Int {
        if process.onPostgres {
            let text = sql.replacingOccurrences(of: #"CAST\('([^']*)' AS BLOB\)"#, with: "convert_to('$1', 'UTF8')", options: .regularExpression)
            return Int(try TestPostgres.psql(process.databasePath, text)) ?? -1
        }
        let queue = try DatabaseQueue(path: process.databasePath)
        return try queue.read { try Int.fetchOne($0, sql: sql) ?? -1 }
    }

    private func checkedOutBill(_ server: Server) throws -> (id: String, total: Int64) {
        let bill = try server.newBill()
        let id = bill["id"]!.string
        try server.add("latte", 2, to: id)
        let checkout = try server.send("POST", "/v1/bills/\(id)/checkout")
        try #require(checkout.status == 200, "\(checkout.text)")
        return (id, checkout.json["bill"]!["totalMinor"]!.int)
    }

    @Test("enrollment hands out a token once; only its digest is stored")
    func enrollment() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        let client = try process.client(authorized: false)
        let response = try client.json("POST", "/v1/devices", ["name": "Front counter", "enrollmentCode": .string(RoutemapProcess.enrollmentCode)])
        #expect(response.status == 201)
        #expect(response.header("Cache-Control") == "no-store")
        let token = response.json["token"]!.string
        #expect(token.hasPrefix("rmt_") && token.count >= 4 + 43)
        #expect(response.json["deviceId"]!.string.hasPrefix("dev_"))
        #expect(try count("SELECT count(*) FROM devices WHERE token_digest = CAST('\(token)' AS BLOB)", in: process) == 0)
        #expect(try count("SELECT count(*) FROM devices WHERE length(token_digest) = 32", in: process) == 1)

        expectProblem(try client.json("POST", "/v1/devices", ["name": "x", "enrollmentCode": "wrong-code"]), 401, "unauthorized")
        expectProblem(try client.json("POST", "/v1/devices", ["name": "x"]), 400, "invalid_field")
        // Found by the fuzzer: a NUL in the name once failed the schema's CHECK with a 500.
        for name in ["\u{0}", "a\u{0}b", "tab\there", "\u{7F}"] {
            expectProblem(
                try client.json("POST", "/v1/devices", ["name": .string(name), "enrollmentCode": .string(RoutemapProcess.enrollmentCode)]),
                400, "invalid_field")
        }
        expectProblem(
            try client.json("POST", "/v1/devices", ["name": "x", "enrollmentCode": .string(RoutemapProcess.enrollmentCode), "admin": true]),
            400, "invalid_field")
    }

    @Test("every /v1 endpoint but enrollment needs a valid bearer token: 401 with WWW-Authenticate, before 404")
    func authentication() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        let anonymous = try process.client(authorized: false)
        for (method, path) in [
            ("GET", "/v1/menu/items"), ("GET", "/v1/launch"), ("POST", "/v1/bills"), ("GET", "/v1/bills/bill_x"),
            ("POST", "/v1/navigate"), ("GET", "/v1/routes"), ("GET", "/v1/resolve?url=x"), ("GET", "/v1/nowhere"), ("DELETE", "/v1/menu/items"),
        ] {
            let response = try anonymous.request(method, path)
            expectProblem(response, 401, "unauthorized")
            #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "\(method) \(path)")
        }
        let wrong = try anonymous.request("GET", "/v1/launch", headers: [("Authorization", "Bearer rmt_not-a-token")])
        expectProblem(wrong, 401, "unauthorized")
        #expect(wrong.header("WWW-Authenticate")?.contains("invalid_token") == true)
        expectProblem(try anonymous.request("GET", "/v1/launch", headers: [("Authorization", "Basic abc")]), 401, "unauthorized")
        #expect(try anonymous.request("GET", "/healthz").status == 200)
        #expect(try process.client().request("GET", "/v1/launch").status == 200)
    }

    @Test("wrong enrollment codes from one address are limited: 429 with Retry-After, even for the right code")
    func enrollmentLimit() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        let client = try process.client(authorized: false)
        for _ in 0..<5 {
            expectProblem(try client.json("POST", "/v1/devices", ["name": "x", "enrollmentCode": "guess-guess"]), 401, "unauthorized")
        }
        let limited = try client.json("POST", "/v1/devices", ["name": "x", "enrollmentCode": .string(RoutemapProcess.enrollmentCode)])
        expectProblem(limited, 429, "too_many_requests")
        #expect(Int(limited.header("Retry-After") ?? "") ?? 0 >= 1)
    }

    @Test("the per-token rate limit answers 429 with Retry-After, per device")
    func rateLimit() throws {
        let process = try RoutemapProcess(arguments: ["--rate-limit", "5"])
        defer { process.cleanUp() }
        let client = try process.client()
        let responses = try (0..<12).map { _ in try client.request("GET", "/v1/menu/items") }
        let statuses = responses.map(\.status)
        #expect(statuses.prefix(5).allSatisfy { $0 == 200 }, "\(statuses)")
        let limited = try #require(responses.first { $0.status == 429 }, "\(statuses)")
        expectProblem(limited, 429, "too_many_requests")
        #expect(Int(limited.header("Retry-After") ?? "") ?? 0 >= 1)
        let other = try process.client(authorized: false)
        other.defaultHeaders = [("Authorization", "Bearer \(try process.enroll(name: "second"))")]
        #expect(try other.request("GET", "/v1/menu/items").status == 200)
    }

    @Test("another device's bill is 404 on every endpoint, navigate and resolve included, and nothing changes")
    func ownership() throws {
        let server = try Server()
        let (billId, total) = try checkedOutBill(server)
        let before = try server.bill(billId)
        let intruder = try server.process.client(authorized: false)
        intruder.defaultHeaders = [("Authorization", "Bearer \(try server.process.enroll(name: "intruder"))")]
        let json = [("Content-Type", "application/json")]
        let attempts: [(String, String, JSON?)] = [
            ("GET", "/v1/bills/\(billId)", nil),
            ("POST", "/v1/bills/\(billId)/items", ["menuItemId": "latte", "quantity": 1]),
            ("PATCH", "/v1/bills/\(billId)/items/\(before["lines"]!.array[0]["lineId"]!.string)", ["quantity": 3]),
            ("DELETE", "/v1/bills/\(billId)/items/\(before["lines"]!.array[0]["lineId"]!.string)", nil),
            ("POST", "/v1/bills/\(billId)/checkout", nil),
            ("POST", "/v1/bills/\(billId)/checkout/cancel", nil),
            ("POST", "/v1/bills/\(billId)/pay", ["method": "card", "amountMinor": .int(total)]),
            ("POST", "/v1/navigate", ["from": ["tabBar", "splitContainer"], "to": "orderSummary", "input": ["billId": .string(billId)]]),
        ]
        for (method, path, body) in attempts {
            let headers = json + [("Idempotency-Key", UUID().uuidString)]
            let response = try intruder.request(method, path, headers: body == nil ? [("Idempotency-Key", UUID().uuidString)] : headers, body: body?.encoded())
            expectProblem(response, 404, "not_found")
        }
        expectProblem(try intruder.request("GET", "/v1/resolve?url=routemap%3A%2F%2Fbills%2F\(billId)%2Fsummary"), 404, "not_found")
        #expect(try server.bill(billId) == before)
        // The intruder's launch shows its own new bill, not the other device's.
        let launch = try intruder.request("GET", "/v1/launch").json
        #expect(launch["navigation"]!.array[3]["screen"]!["inputs"]!["billId"]!.string != billId)
    }

    @Test("a retried pay with its key replays the answer: one payment, one next bill")
    func payReplay() throws {
        let server = try Server()
        let (billId, total) = try checkedOutBill(server)
        let key = [("Idempotency-Key", "pay-\(UUID().uuidString)")]
        let first = try server.send("POST", "/v1/bills/\(billId)/pay", json: ["method": "card", "amountMinor": .int(total)], headers: key)
        #expect(first.status == 200, "\(first.text)")
        #expect(first.header("Idempotent-Replayed") == nil)
        let again = try server.send("POST", "/v1/bills/\(billId)/pay", json: ["amountMinor": .int(total), "method": "card"], headers: key)
        #expect(again.status == 200)
        #expect(again.header("Idempotent-Replayed") == "true")
        #expect(again.body == first.body)
        #expect(try count("SELECT count(*) FROM payments WHERE bill_id = '\(billId)'", in: server.process) == 1)
        #expect(try count("SELECT count(*) FROM bills WHERE status = 'open'", in: server.process) == 1)

        expectProblem(
            try server.send("POST", "/v1/bills/\(billId)/pay", json: ["method": "cash", "amountMinor": .int(total)], headers: key), 422,
            "idempotency_key_reused")
        expectProblem(
            try server.send("POST", "/v1/bills/\(billId)/pay", json: ["method": "card", "amountMinor": .int(total)]), 409,
            "bill_not_checked_out")
    }

    @Test("pay without a key is 400; malformed keys are 400; validation failures are not recorded")
    func payKeys() throws {
        let server = try Server()
        let (billId, total) = try checkedOutBill(server)
        let body: JSON = ["method": "card", "amountMinor": .int(total)]
        expectProblem(
            try server.client.request("POST", "/v1/bills/\(billId)/pay", headers: [("Content-Type", "application/json")], body: body.encoded()),
            400, "idempotency_key_required")
        expectProblem(try server.send("POST", "/v1/bills/\(billId)/pay", json: body, headers: [("Idempotency-Key", "")]), 400, "invalid_field")
        expectProblem(
            try server.send("POST", "/v1/bills/\(billId)/pay", json: body, headers: [("Idempotency-Key", String(repeating: "k", count: 256))]),
            400, "invalid_field")
        let key = [("Idempotency-Key", "corrected-retry")]
        expectProblem(
            try server.send("POST", "/v1/bills/\(billId)/pay", json: ["method": "card", "amountMinor": .int(total - 1)], headers: key), 422,
            "amount_mismatch")
        let corrected = try server.send("POST", "/v1/bills/\(billId)/pay", json: body, headers: key)
        #expect(corrected.status == 200, "\(corrected.text)")
        #expect(corrected.header("Idempotent-Replayed") == nil)
    }

    @Test("opening a bill and checking out replay too; state conflicts are recorded and replayed")
    func otherKeys() throws {
        let server = try Server()
        let key = [("Idempotency-Key", "open-1")]
        let opened = try server.send("POST", "/v1/bills", headers: key)
        #expect(opened.status == 201)
        let replayed = try server.send("POST", "/v1/bills", headers: key)
        #expect(replayed.status == 201)
        #expect(replayed.header("Location") == opened.header("Location"))
        #expect(replayed.header("Idempotent-Replayed") == "true")
        #expect(replayed.body == opened.body)
        let billId = opened.json["bill"]!["id"]!.string

        let checkoutKey = [("Idempotency-Key", "checkout-1")]
        expectProblem(try server.send("POST", "/v1/bills/\(billId)/checkout", headers: checkoutKey), 409, "bill_empty")
        try server.add("latte", to: billId)
        let conflictAgain = try server.send("POST", "/v1/bills/\(billId)/checkout", headers: checkoutKey)
        expectProblem(conflictAgain, 409, "bill_empty")
        #expect(conflictAgain.header("Idempotent-Replayed") == "true")
        #expect(try server.bill(billId)["status"] == "open")
        #expect(try server.send("POST", "/v1/bills/\(billId)/checkout", headers: [("Idempotency-Key", "checkout-2")]).status == 200)
    }

    @Test("50 concurrent pays of one bill, with one key or with 50 keys: exactly one payment and one next bill", arguments: [true, false])
    func concurrentPays(sameKey: Bool) throws {
        let server = try Server()
        let (billId, total) = try checkedOutBill(server)
        let token = try server.process.token()
        let port = server.process.port
        let body: JSON = ["method": "card", "amountMinor": .int(total)]
        let results = Collected<TestResponse?>()
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            do {
                let client = try TestHTTPClient(port: port)
                let key = sameKey ? "one-key" : "key-\(index)"
                let response = try client.request(
                    "POST", "/v1/bills/\(billId)/pay",
                    headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json"), ("Idempotency-Key", key)],
                    body: body.encoded())
                results.append(response)
            } catch {
                results.append(nil)
            }
        }
        let responses = results.all
        #expect(responses.count == 50 && responses.allSatisfy { $0 != nil })
        let succeeded = responses.compactMap { $0 }.filter { $0.status == 200 }
        let paymentIds = Set(succeeded.map { $0.json["payment"]!["id"]!.string })
        #expect(paymentIds.count == 1)
        for response in responses.compactMap({ $0 }) where response.status != 200 {
            let code = response.json["code"]?.stringValue
            #expect(response.status == 409, "\(response.text)")
            #expect(sameKey ? code == "idempotency_key_in_flight" : code == "bill_not_checked_out", "\(response.text)")
        }
        #expect(try count("SELECT count(*) FROM payments", in: server.process) == 1)
        #expect(try count("SELECT count(*) FROM bills WHERE status = 'open'", in: server.process) == 1)
        #expect(try count("SELECT count(*) FROM bills WHERE id = '\(billId)' AND status = 'paid'", in: server.process) == 1)
    }
}
