import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// Two tables on one till, over HTTP against the real binary and a real SQLite file: the
/// README's walkthrough (launch's bill, a second table, list, resume, void), payments read back,
/// and keyed line edits retried; what it leaves survives a restart.
@Suite("Open orders, end to end")
struct OpenOrdersEndToEndTests {
    static func key(_ value: String) -> [(String, String)] { [("Idempotency-Key", value)] }

    static func listed(_ client: TestHTTPClient) throws -> [String] {
        try client.request("GET", "/v1/bills").json["bills"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    static func launchBill(_ client: TestHTTPClient) throws -> String? {
        try client.request("GET", "/v1/launch").json["navigation"]?.arrayValue?.last { $0["route"] == "bill" }?["screen"]?["payload"]?["id"]?
            .stringValue
    }

    @Test("launch's bill, a second table, list, resume, void, pay and read the payment back; all of it after a restart")
    func twoTables() throws {
        let server = try Server()
        let process = server.process
        let client = server.client
        let table1 = try #require(try Self.launchBill(client))
        #expect(try Self.launchBill(client) == table1, "launch opens no second bill")
        try server.add("latte", 2, to: table1)
        Thread.sleep(forTimeInterval: 0.003)  // past the millisecond of table 1's times: listed by time, not by id
        let table2 = try server.newBill()["id"]!.string
        try server.add("croissant", to: table2)
        #expect(try Self.listed(client) == [table2, table1])
        #expect(try Self.launchBill(client) == table2)

        let resumed = try server.send("POST", "/v1/bills/\(table1)/resume", headers: Self.key("resume-table1"))
        #expect(resumed.status == 200, "\(resumed.text)")
        #expect(resumed.json["navigation"]?.arrayValue?.map { $0["op"]?.stringValue ?? "" } == ["dismiss", "replace"])
        #expect(try Self.launchBill(client) == table1)

        // A mistake: a third bill, voided; table 1 (selected before it) is current again.
        let mistake = try server.newBill()["id"]!.string
        let voided = try server.send("POST", "/v1/bills/\(mistake)/void", json: ["reason": "opened by mistake"], headers: Self.key("void-mistake"))
        #expect(voided.status == 200, "\(voided.text)")
        #expect(voided.json["nextBill"]?["id"]?.stringValue == table1)
        #expect(try Self.listed(client) == [table2, table1])

        // Table 2 pays; its payment can be read back, by id and with the bill.
        let total = try server.bill(table2)["totalMinor"]!
        #expect(try server.send("POST", "/v1/bills/\(table2)/checkout").status == 200)
        let paid = try server.send("POST", "/v1/bills/\(table2)/pay", json: ["method": "card", "amountMinor": total])
        #expect(paid.status == 200, "\(paid.text)")
        let payment = try #require(paid.json["payment"])
        #expect(try client.request("GET", "/v1/payments/\(payment["id"]!.string)").json == payment)
        #expect(try server.bill(table2)["payment"] == payment)
        // Paying opens the next bill, current now; table 1 stays parked.
        let next = try #require(paid.json["nextBill"]?["id"]?.stringValue)
        #expect(try Self.listed(client) == [next, table1])

        // The restarted server has the same bills, statuses, reasons and current bill.
        let token = try process.token()
        #expect(process.stop() == 0)
        let restarted = try RoutemapProcess(databasePath: process.databasePath, token: token)
        defer { restarted.cleanUp() }
        let again = try restarted.client()
        #expect(try again.request("GET", "/v1/bills/\(mistake)").json["void"]?["reason"] == "opened by mistake")
        #expect(try again.request("GET", "/v1/bills/\(table2)").json["payment"] == payment)
        #expect(try Self.listed(again) == [next, table1])
        #expect(try Self.launchBill(again) == next)
        // A retried void after the restart still replays, with no second effect.
        let replay = try again.request(
            "POST", "/v1/bills/\(mistake)/void", headers: [("Content-Type", "application/json")] + Self.key("void-mistake"),
            body: (["reason": "opened by mistake"] as JSON).encoded())
        #expect(replay.status == 200)
        #expect(replay.header("Idempotent-Replayed") == "true")
    }

    @Test("the list shows a discounted bill's discount, its totals the bill's own (subtotal − discount + tax = total), open and checked out")
    func discountedBillListed() throws {
        let server = try Server(arguments: ["--till-discount-limit-bps", "1000"])
        let billId = try server.newBill()["id"]!.string
        try server.add("latte", 2, to: billId)
        let discounted = try server.send(
            "PUT", "/v1/bills/\(billId)/discount", json: ["percentBps": 1000, "reason": "Regular"], headers: Self.key("discount"))
        #expect(discounted.status == 200, "\(discounted.text)")
        for step in ["open", "checked out"] {
            if step == "checked out" { #expect(try server.send("POST", "/v1/bills/\(billId)/checkout").status == 200) }
            let bill = try server.bill(billId)
            let list = try server.get("/v1/bills")
            let entry = try #require(list.json["bills"]?.arrayValue?.first { $0["id"] == .string(billId) }, "\(list.text)")
            // 950 less 10 % (95), then 8.75 % of the 855 left (75): 930.
            #expect(entry["discountMinor"] == 95, "\(step): \(list.text)")
            for member in ["subtotalMinor", "discountMinor", "taxMinor", "totalMinor"] {
                #expect(entry[member] == bill[member], "\(step): \(member) of \(list.text)")
            }
            #expect(entry["subtotalMinor"]!.int - entry["discountMinor"]!.int + entry["taxMinor"]!.int == entry["totalMinor"]!.int, "\(step): \(list.text)")
        }
    }

    @Test("a keyed add retried over the wire adds once; a retried remove replays instead of 404")
    func retriedLineEdits() throws {
        let server = try Server()
        let bill = try server.newBill()["id"]!.string
        let first = try server.send("POST", "/v1/bills/\(bill)/items", json: ["menuItemId": "latte", "quantity": 1], headers: Self.key("tap-1"))
        let retry = try server.send("POST", "/v1/bills/\(bill)/items", json: ["menuItemId": "latte", "quantity": 1], headers: Self.key("tap-1"))
        #expect(first.status == 200 && retry.status == 200)
        #expect(retry.header("Idempotent-Replayed") == "true")
        #expect(retry.body == first.body)
        #expect(try server.bill(bill)["lines"]?.arrayValue?.first?["quantity"] == 1)
        let line = try server.bill(bill)["lines"]!.array[0]["lineId"]!.string
        let removed = try server.send("DELETE", "/v1/bills/\(bill)/items/\(line)", headers: Self.key("tap-2"))
        let removedAgain = try server.send("DELETE", "/v1/bills/\(bill)/items/\(line)", headers: Self.key("tap-2"))
        #expect(removed.status == 200)
        #expect(removedAgain.status == 200)
        #expect(removedAgain.body == removed.body)
        #expect(try server.bill(bill)["lines"]?.arrayValue?.isEmpty == true)
    }
}
