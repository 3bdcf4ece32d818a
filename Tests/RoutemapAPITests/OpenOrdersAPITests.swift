import Foundation
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// Several open bills through the API: list, resume, void, payments read back, and keyed line
/// edits that a retry never applies twice.
@Suite("Open orders through the API")
struct OpenOrdersAPITests {
    static func key(_ value: String) -> [(String, String)] { [("Idempotency-Key", value)] }

    /// Waits past the current millisecond, the resolution of bill times: bills opened (or
    /// resumed) one after the other are then ordered by time, not by the tie-breaking id.
    static func nextMillisecond() async throws { try await Task.sleep(for: .milliseconds(3)) }

    static func ids(_ response: TestResponse) -> [String] {
        response.json["bills"]?.array.map { $0["id"]?.string ?? "" } ?? []
    }

    /// The bill id the answer's steps show on the bill screen.
    static func shownBill(_ response: TestResponse) -> String? {
        response.json["navigation"]?.array.last { $0["route"]?.stringValue == "bill" }?["screen"]?["payload"]?["id"]?.stringValue
    }

    @Test("launch's bill and a second table are both listed, newest first, the current one marked; pages follow nextCursor")
    func listTwoTables() async throws {
        let api = try await InProcessAPI()
        let launch = await api.get("/v1/launch")
        let first = try #require(Self.shownBill(launch))
        #expect(await api.get("/v1/launch").status == 200)
        #expect(Self.ids(await api.get("/v1/bills")) == [first], "a second launch opens no bill")
        try await Self.nextMillisecond()
        let second = try await api.newBill()["id"]!.string
        try await api.add("latte", 2, to: second)

        let list = await api.get("/v1/bills")
        #expect(list.status == 200, "\(list.text)")
        #expect(Self.ids(list) == [second, first])
        let entries = list.json["bills"]!.array
        #expect(entries.map { $0["current"]?.boolValue } == [true, false])
        #expect(entries[0]["lineCount"]?.int == 1)
        #expect(entries[0]["totalMinor"]?.int == 1033)
        #expect(entries[0]["lines"] == nil)
        #expect(list.json["nextCursor"] == nil)

        let page = await api.get("/v1/bills?limit=1")
        #expect(Self.ids(page) == [second])
        let cursor = try #require(page.json["nextCursor"]?.stringValue)
        let next = await api.get("/v1/bills?limit=1&cursor=\(cursor)")
        #expect(Self.ids(next) == [first])
        #expect(next.json["nextCursor"] == nil)

        #expect(Self.ids(await api.get("/v1/bills?status=checked_out")) == [])
        _ = await api.send("POST", "/v1/bills/\(second)/checkout")
        #expect(Self.ids(await api.get("/v1/bills?status=checked_out")) == [second])
        #expect(Self.ids(await api.get("/v1/bills?status=open")) == [first])
    }

    @Test("a bad status, limit or cursor is 400 invalid_field naming it")
    func badQueries() async throws {
        let api = try await InProcessAPI()
        _ = try await api.newBill()
        for (query, field) in [
            ("status=paid", "status"), ("status=open,", "status"), ("limit=0", "limit"), ("limit=101", "limit"), ("limit=x", "limit"),
            ("cursor=bill_nosuch", "cursor"),
        ] {
            let response = await api.get("/v1/bills?\(query)")
            expectProblem(response, 400, "invalid_field")
            #expect(response.json["field"]?.stringValue == field, "\(query)")
        }
    }

    @Test("resume makes a parked bill current for launch and the list; a retry replays; a paid bill is 409 bill_settled")
    func resume() async throws {
        let api = try await InProcessAPI()
        let first = try await api.newBill()["id"]!.string
        try await Self.nextMillisecond()
        let second = try await api.newBill()["id"]!.string
        #expect(Self.shownBill(await api.get("/v1/launch")) == second)
        try await Self.nextMillisecond()

        let resumed = await api.send("POST", "/v1/bills/\(first)/resume", headers: Self.key("resume-1"))
        #expect(resumed.status == 200, "\(resumed.text)")
        #expect(resumed.json["bill"]?["id"]?.stringValue == first)
        let steps = resumed.json["navigation"]?.array ?? []
        #expect(steps.first?["op"]?.stringValue == "dismiss")
        #expect(steps.first?["route"]?.stringValue == "billList")
        #expect(Self.shownBill(resumed) == first)
        #expect(Self.shownBill(await api.get("/v1/launch")) == first)
        #expect(await api.get("/v1/bills").json["bills"]?.array.first { $0["current"]?.boolValue == true }?["id"]?.stringValue == first)

        let again = await api.send("POST", "/v1/bills/\(first)/resume", headers: Self.key("resume-1"))
        #expect(again.status == 200)
        #expect(again.header("Idempotent-Replayed") == "true")
        #expect(again.body == resumed.body)

        try await api.add("bagel", to: first)
        #expect(await api.send("POST", "/v1/bills/\(first)/checkout").status == 200)
        let paid = await api.send("POST", "/v1/bills/\(first)/pay", json: ["method": "card", "amountMinor": 489])
        #expect(paid.status == 200, "\(paid.text)")
        expectProblem(await api.send("POST", "/v1/bills/\(first)/resume"), 409, "bill_settled")
        expectProblem(await api.send("POST", "/v1/bills/bill_nosuch/resume"), 404, "not_found")
    }

    @Test("void keeps the lines, records the reason, takes no further change, and the bill selected before becomes current")
    func void() async throws {
        let api = try await InProcessAPI()
        let first = try await api.newBill()["id"]!.string
        try await Self.nextMillisecond()
        let second = try await api.newBill()["id"]!.string
        let lines = try await api.add("latte", to: second)["lines"]

        // A reason must explain something, on lines of text: blank or with other control
        // characters it is 400, and the bill stays open.
        for reason in [" ", "\n\t", "\u{3000}", "bell\u{7}"] {
            let refused = await api.send("POST", "/v1/bills/\(second)/void", json: ["reason": .string(reason)])
            expectProblem(refused, 400, "invalid_field")
            #expect(refused.json["field"]?.stringValue == "reason")
        }
        #expect(try await api.bill(second)["status"]?.stringValue == "open")

        let voided = await api.send("POST", "/v1/bills/\(second)/void", json: ["reason": "opened by mistake"], headers: Self.key("void-1"))
        #expect(voided.status == 200, "\(voided.text)")
        #expect(voided.json["bill"]?["status"]?.stringValue == "voided")
        #expect(voided.json["bill"]?["void"]?["reason"]?.stringValue == "opened by mistake")
        #expect(voided.json["nextBill"]?["id"]?.stringValue == first)
        #expect(Self.shownBill(voided) == first)
        let read = try await api.bill(second)
        #expect(read["lines"] == lines)
        #expect(read["void"]?["voidedAt"]?.stringValue != nil)
        #expect(Self.ids(await api.get("/v1/bills")) == [first])
        #expect(Self.shownBill(await api.get("/v1/launch")) == first)

        let replay = await api.send("POST", "/v1/bills/\(second)/void", json: ["reason": "opened by mistake"], headers: Self.key("void-1"))
        #expect(replay.header("Idempotent-Replayed") == "true")
        #expect(replay.body == voided.body)
        expectProblem(await api.send("POST", "/v1/bills/\(second)/void", json: ["reason": "other"], headers: Self.key("void-1")), 422, "idempotency_key_reused")
        expectProblem(await api.send("POST", "/v1/bills/\(second)/void", json: ["reason": "again"]), 409, "bill_settled")
        expectProblem(await api.send("POST", "/v1/bills/\(second)/items", json: ["menuItemId": "latte", "quantity": 1]), 409, "bill_not_open")
        #expect(try await api.bill(second) == read)

        // Voiding the last unsettled bill opens a new current one.
        let last = await api.send("POST", "/v1/bills/\(first)/void", json: ["reason": "table left"])
        #expect(last.status == 200)
        let next = try #require(last.json["nextBill"]?["id"]?.stringValue)
        #expect(next != first && next != second)
        #expect(Self.ids(await api.get("/v1/bills")) == [next])
    }

    @Test("a void reason is 1 to 200 characters (not bytes); anything else is 400 and changes nothing")
    func voidReasons() async throws {
        let api = try await InProcessAPI()
        let bill = try await api.newBill()["id"]!.string
        for body: JSON in [[:], ["reason": ""], ["reason": 5], ["reason": .string(String(repeating: "x", count: 201))], ["reason": "x", "extra": 1]] {
            let response = await api.send("POST", "/v1/bills/\(bill)/void", json: body)
            expectProblem(response, 400, "invalid_field")
        }
        // Empty or too long, the detail gives the limit people count in.
        for reason in ["", String(repeating: "x", count: 201)] {
            let response = await api.send("POST", "/v1/bills/\(bill)/void", json: ["reason": .string(reason)])
            #expect(response.json["detail"] == "'reason' must be 1 to 200 characters long.", "\(response.text)")
        }
        #expect(try await api.bill(bill)["status"]?.stringValue == "open")
        let wide = String(repeating: "é", count: 200)
        let voided = await api.send("POST", "/v1/bills/\(bill)/void", json: ["reason": .string(wide)])
        #expect(voided.status == 200, "\(voided.text)")
        #expect(try await api.bill(bill)["void"]?["reason"]?.stringValue == wide)
    }

    @Test("a paid bill carries its payment; GET /v1/payments/{id} reads it back, for its own device only")
    func paymentReadBack() async throws {
        let api = try await InProcessAPI()
        let bill = try await api.newBill()["id"]!.string
        try await api.add("latte", to: bill)
        #expect(await api.send("POST", "/v1/bills/\(bill)/checkout").status == 200)
        #expect(try await api.bill(bill)["payment"] == nil)
        let paid = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "cash", "amountMinor": 517, "tenderedMinor": 1000])
        #expect(paid.status == 200, "\(paid.text)")
        let payment = try #require(paid.json["payment"])
        #expect(try await api.bill(bill)["payment"] == payment)
        let id = payment["id"]!.string
        let read = await api.get("/v1/payments/\(id)")
        #expect(read.status == 200)
        #expect(read.json == payment)
        #expect(read.json["changeMinor"]?.int == 483)

        let other = await DeviceRoleTests.enroll(api, name: "Back", code: InProcessAPI.enrollmentCode)
        let otherToken = try #require(other.json["token"]?.stringValue)
        expectProblem(await api.send("GET", "/v1/payments/\(id)", headers: DeviceRoleTests.bearer(otherToken)), 404, "not_found")
        expectProblem(await api.get("/v1/payments/pay_nosuch"), 404, "not_found")
    }

    @Test("a retried keyed add, change, remove and cancel applies once and replays the answer; another body with the key is 422")
    func keyedLineEdits() async throws {
        let api = try await InProcessAPI()
        let bill = try await api.newBill()["id"]!.string
        let add = await api.send("POST", "/v1/bills/\(bill)/items", json: ["menuItemId": "latte", "quantity": 1], headers: Self.key("add-1"))
        #expect(add.status == 200)
        let addAgain = await api.send("POST", "/v1/bills/\(bill)/items", json: ["quantity": 1, "menuItemId": "latte"], headers: Self.key("add-1"))
        #expect(addAgain.header("Idempotent-Replayed") == "true")
        #expect(addAgain.body == add.body)
        expectProblem(
            await api.send("POST", "/v1/bills/\(bill)/items", json: ["menuItemId": "latte", "quantity": 2], headers: Self.key("add-1")), 422,
            "idempotency_key_reused")
        var current = try await api.bill(bill)
        #expect(current["lines"]?.array.count == 1)
        #expect(current["lines"]?.array.first?["quantity"]?.int == 1)
        let line = current["lines"]!.array[0]["lineId"]!.string

        let change = await api.send("PATCH", "/v1/bills/\(bill)/items/\(line)", json: ["quantity": 3], headers: Self.key("change-1"))
        #expect(change.status == 200)
        let changeAgain = await api.send("PATCH", "/v1/bills/\(bill)/items/\(line)", json: ["quantity": 3], headers: Self.key("change-1"))
        #expect(changeAgain.header("Idempotent-Replayed") == "true")
        #expect(try await api.bill(bill)["version"] == change.json["bill"]?["version"])

        try await api.add("bagel", to: bill)
        let remove = await api.send("DELETE", "/v1/bills/\(bill)/items/\(line)", headers: Self.key("remove-1"))
        #expect(remove.status == 200)
        let removeAgain = await api.send("DELETE", "/v1/bills/\(bill)/items/\(line)", headers: Self.key("remove-1"))
        #expect(removeAgain.status == 200, "a retried remove replays instead of 404")
        #expect(removeAgain.header("Idempotent-Replayed") == "true")
        current = try await api.bill(bill)
        #expect(current["lines"]?.array.map { $0["menuItemId"]?.string } == ["bagel"])

        #expect(await api.send("POST", "/v1/bills/\(bill)/checkout").status == 200)
        let cancel = await api.send("POST", "/v1/bills/\(bill)/checkout/cancel", headers: Self.key("cancel-1"))
        #expect(cancel.status == 200)
        #expect(await api.send("POST", "/v1/bills/\(bill)/checkout").status == 200)
        let cancelAgain = await api.send("POST", "/v1/bills/\(bill)/checkout/cancel", headers: Self.key("cancel-1"))
        #expect(cancelAgain.status == 200)
        #expect(cancelAgain.header("Idempotent-Replayed") == "true")
        #expect(try await api.bill(bill)["status"]?.stringValue == "checked_out", "the replay changed nothing")
    }

    @Test("the in-memory test store lets a write's body read through the store, as keyed changes' answers do on the real stores")
    func testStoreReadsInsideWrites() async throws {
        let store = InMemoryStore(menu: InProcessAPI.menu)
        // A check of the test double itself: it crashed (a recursive lock) when it held its
        // state's lock during writes, which the real stores never did.
        let revision = try await store.write(durability: .full) { _ in try store.menuRevision() }
        #expect(revision == (try store.menuRevision()))
    }

    @Test("a line raised past 999 is 422 line_quantity_limit with the limit, and the bill is unchanged")
    func lineQuantityLimit() async throws {
        let api = try await InProcessAPI()
        let bill = try await api.newBill()["id"]!.string
        let before = try await api.add("latte", 999, to: bill)
        let response = await api.send("POST", "/v1/bills/\(bill)/items", json: ["menuItemId": "latte", "quantity": 1])
        expectProblem(response, 422, "line_quantity_limit")
        #expect(response.json["limit"]?.int == 999)
        #expect(try await api.bill(bill) == before)
    }
}
