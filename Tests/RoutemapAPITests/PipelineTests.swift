import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// The API's routes through the one pipeline: access declared with each route, the device as
/// handlers see it, and idempotency's one path.
@Suite("The API's pipeline, in process")
struct PipelineTests {
    @Test("open routes need no token; every other /v1 path, known or not, is 401 before 404 or 405; unknown paths outside /v1 are 404 to anyone")
    func access() async throws {
        let server = try await InProcessAPI()
        #expect(await server.send("GET", "/healthz", authorized: false).status == 200)
        let enrollment = await server.send(
            "POST", "/v1/devices", json: ["name": "second", "enrollmentCode": .string(InProcessAPI.enrollmentCode)], authorized: false)
        #expect(enrollment.status == 201)
        for (method, path) in [("GET", "/v1/launch"), ("GET", "/v1/nothing/here"), ("DELETE", "/v1/menu/items"), ("GET", "/v1")] {
            let refused = await server.send(method, path, authorized: false)
            expectProblem(refused, 401, "unauthorized")
            #expect(refused.header("WWW-Authenticate") != nil)
        }
        // No protected route lives outside /v1 (a browser asks for /favicon.ico on every visit).
        for path in ["/favicon.ico", "/nowhere", "/v1x", "/v2/launch"] {
            let missing = await server.send("GET", path, authorized: false)
            expectProblem(missing, 404, "not_found")
            #expect(missing.header("WWW-Authenticate") == nil)
        }
        expectProblem(await server.send("GET", "/v1/nothing/here"), 404, "not_found")
        expectProblem(await server.send("DELETE", "/v1/menu/items"), 405, "method_not_allowed")
        expectProblem(await server.send("GET", "/v1/launch", headers: [("Authorization", "Bearer rmt_nope")]), 401, "unauthorized")
    }

    @Test("the per-device rate limit comes after authentication: 401 for a bad token, 429 with Retry-After past the limit")
    func rateLimit() async throws {
        let server = try await InProcessAPI(rateLimit: 2)
        var statuses: [Int] = []
        for _ in 0..<5 { statuses.append(await server.get("/v1/menu/items").status) }
        #expect(statuses.prefix(2).allSatisfy { $0 == 200 })
        let limited = await server.get("/v1/menu/items")
        expectProblem(limited, 429, "too_many_requests")
        #expect(limited.header("Retry-After") != nil)
        expectProblem(await server.send("GET", "/v1/menu/items", headers: [("Authorization", "Bearer rmt_nope")]), 401, "unauthorized")
    }

    @Test("a keyed change answers once and replays that answer, headers and all; another body with the key is 422")
    func idempotentReplay() async throws {
        let server = try await InProcessAPI()
        let first = await server.send("POST", "/v1/bills", headers: [("Idempotency-Key", "open-1")])
        #expect(first.status == 201)
        #expect(first.header("Idempotent-Replayed") == nil)
        let again = await server.send("POST", "/v1/bills", headers: [("Idempotency-Key", "open-1")])
        #expect(again.status == 201)
        #expect(again.header("Idempotent-Replayed") == "true")
        #expect(again.body == first.body)
        #expect(again.header("Location") == first.header("Location"))
        #expect(again.header("Content-Type") == "application/json")
        #expect(server.store.snapshot.bills.count == 1)
        let reused = await server.send("POST", "/v1/bills", json: [:], headers: [("Idempotency-Key", "open-1")])
        #expect(reused.status == 201)  // An empty object is the same request as no body.
        #expect(reused.header("Idempotent-Replayed") == "true")
        let billId = first.json["bill"]!["id"]!.string
        let otherPath = await server.send("POST", "/v1/bills/\(billId)/checkout", headers: [("Idempotency-Key", "open-1")])
        expectProblem(otherPath, 422, "idempotency_key_reused")
    }

    @Test("a member sent as null is the same request as one left out (null counts as absent), to its key too")
    func nullMembersInTheFingerprint() async throws {
        let server = try await InProcessAPI()
        let billId = try await server.newBill()["id"]!.string
        try await server.add("latte", to: billId)
        #expect(await server.send("POST", "/v1/bills/\(billId)/checkout").status == 200)
        let total = try await server.bill(billId)["totalMinor"]!
        let paid = await server.send("POST", "/v1/bills/\(billId)/pay", json: ["method": "card", "amountMinor": total], headers: [("Idempotency-Key", "pay-1")])
        #expect(paid.status == 200, "\(paid.text)")
        let retried = await server.send(
            "POST", "/v1/bills/\(billId)/pay", json: ["method": "card", "amountMinor": total, "tenderedMinor": nil], headers: [("Idempotency-Key", "pay-1")])
        #expect(retried.status == 200, "\(retried.text)")
        #expect(retried.header("Idempotent-Replayed") == "true")
        #expect(retried.json == paid.json)
        #expect(server.store.snapshot.payments.count == 1)
    }

    @Test("a state conflict under a key is recorded and replayed as the same problem")
    func recordedConflict() async throws {
        let server = try await InProcessAPI()
        let billId = try await server.newBill()["id"]!.string
        let empty = await server.send("POST", "/v1/bills/\(billId)/checkout", headers: [("Idempotency-Key", "co-1")])
        expectProblem(empty, 409, "bill_empty")
        try await server.add("latte", to: billId)
        let replayed = await server.send("POST", "/v1/bills/\(billId)/checkout", headers: [("Idempotency-Key", "co-1")])
        expectProblem(replayed, 409, "bill_empty")
        #expect(replayed.header("Idempotent-Replayed") == "true")
        #expect(replayed.body == empty.body)
        #expect(try await server.bill(billId)["status"] == "open")
    }

    @Test("a walk that needs the current bill of a device that has none opens one, as launch would")
    func derivedBill() async throws {
        let server = try await InProcessAPI()
        #expect(server.store.snapshot.bills.isEmpty)
        let walk = await server.navigate(["from": "menu", "to": "bill"])
        #expect(walk.status == 200, "\(walk.text)")
        #expect(server.store.snapshot.bills.count == 1)
        let billId = try #require(server.store.snapshot.bills.keys.first)
        #expect(walk.json["navigation"]?.array.last?["screen"]?["inputs"]?["billId"] == .string(billId))
        let again = await server.navigate(["from": "menu", "to": "bill"])
        #expect(again.status == 200)
        #expect(server.store.snapshot.bills.count == 1)
    }

    @Test("launch, navigate and resolve answer at once when the device has a bill; only the first, which opens one, waits")
    func answeredAtOnceUnlessWaiting() async throws {
        let walk: JSON = ["from": "menu", "to": "bill"]
        for (method, path, body) in [("GET", "/v1/launch", nil), ("POST", "/v1/navigate", walk), ("GET", "/v1/resolve?url=routemap://menu&from=tabBar", nil)] as [(String, String, JSON?)] {
            let server = try await InProcessAPI()  // a device without a bill
            #expect(server.store.snapshot.bills.isEmpty)
            guard case .suspend(let work) = server.dispatch(method, path, json: body) else {
                Issue.record("\(method) \(path) answered at once though it must open a bill")
                continue
            }
            var labels = RequestLabels()
            let opened = await work(&labels)
            #expect(opened.status == .ok)
            #expect(server.store.snapshot.bills.count == 1)
            guard case .answer(let now) = server.dispatch(method, path, json: body) else {
                Issue.record("\(method) \(path) suspended though the device has its bill")
                continue
            }
            #expect(now.status == .ok)
            #expect(server.store.snapshot.bills.count == 1)
        }
    }

    @Test("where reads are round trips, a token not cached yet is looked up with the request suspended, inside the store's reading")
    func tokenLookupWaits() async throws {
        let server = try await InProcessAPI(readsAreImmediate: false)
        let device = try #require(server.store.snapshot.devices.first?.device.id)
        let readings = server.store.readingCount
        let outside = server.store.readsOutsideReading  // start-up's
        guard case .suspend(let work) = server.dispatch("GET", "/v1/menu/items") else {
            Issue.record("a token the store must be asked about was looked up on the calling thread")
            return
        }
        var labels = RequestLabels()
        let first = await work(&labels)
        #expect(first.status == .ok)
        #expect(labels.caller == device, "the caller, learnt while suspended, reaches the observer")
        #expect(server.store.readingCount > readings)
        #expect(server.store.readsOutsideReading == outside, "a store read held the thread serving the request")

        // Cached now: answered at once. (The revision check, once a second, may fall due on a
        // slow machine and make one request wait; the next is then answered at once.)
        var answeredAtOnce = false
        for _ in 0..<5 {
            switch server.dispatch("GET", "/v1/menu/items") {
            case .answer(let response):
                #expect(response.status == .ok)
                answeredAtOnce = true
            case .suspend(let work):
                var labels = RequestLabels()
                #expect(await work(&labels).status == .ok)
            }
            if answeredAtOnce { break }
        }
        #expect(answeredAtOnce, "a cached token kept waiting for the store")
        // A token the store does not know: 401 after the wait, on known and unknown paths alike.
        let stranger = [("Authorization", "Bearer not-a-token")]
        expectProblem(await server.send("GET", "/v1/menu/items", headers: stranger), 401, "unauthorized")
        expectProblem(await server.send("GET", "/v1/nowhere", headers: stranger), 401, "unauthorized")
        #expect(await server.send("GET", "/v1/nowhere").status == 404)
    }
}
