import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// The bill rules that follow the menu and the till's life cycle, over HTTP against the real
/// binary (on SQLite, and on PostgreSQL when `ROUTEMAP_TEST_DATABASE_URL` is set).
@Suite("Bill rules, end to end")
struct BillRulesTests {
    static let managerCode = "e2e-manager-code"

    /// A server with a till (the process's default device) and a manager client.
    private func serverWithManager() throws -> (Server, TestHTTPClient) {
        let server = try Server(arguments: ["--manager-enrollment-code", Self.managerCode])
        let manager = try server.process.client(authorized: false)
        let enrolled = try manager.json(
            "POST", "/v1/devices", ["name": "Owner", "enrollmentCode": .string(Self.managerCode), "role": "manager"])
        try #require(enrolled.status == 201, "\(enrolled.text)")
        manager.defaultHeaders = [("Authorization", "Bearer \(enrolled.json["token"]!.string)")]
        return (server, manager)
    }

    @Test("raising a line of an item made unavailable, then retired, is refused as adding it is; lowering and removing are not")
    func raiseFollowsTheMenu() throws {
        let (server, manager) = try serverWithManager()
        let billId = try server.newBill()["id"]!.string
        let lineId = try server.add("latte", 3, to: billId)["lines"]!.array[0]["lineId"]!.string
        let quantity = { (bill: JSON) in bill["lines"]?.array.first?["quantity"] }

        #expect(try manager.json("PATCH", "/v1/menu/items/latte", ["available": false]).status == 200)
        expectProblem(try server.send("POST", "/v1/bills/\(billId)/items", json: ["menuItemId": "latte", "quantity": 1]), 422, "menu_item_unavailable")
        let raised = try server.send("PATCH", "/v1/bills/\(billId)/items/\(lineId)", json: ["quantity": 6])
        expectProblem(raised, 422, "menu_item_unavailable")
        #expect(raised.json["menuItemId"] == "latte")
        #expect(quantity(try server.bill(billId)) == 3)
        // The same quantity, and a lower one, are allowed.
        #expect(try server.send("PATCH", "/v1/bills/\(billId)/items/\(lineId)", json: ["quantity": 3]).status == 200)
        let lowered = try server.send("PATCH", "/v1/bills/\(billId)/items/\(lineId)", json: ["quantity": 2])
        #expect(lowered.status == 200, "\(lowered.text)")
        #expect(quantity(lowered.json["bill"]!) == 2)

        #expect(try manager.request("DELETE", "/v1/menu/items/latte").status == 200)
        expectProblem(try server.send("POST", "/v1/bills/\(billId)/items", json: ["menuItemId": "latte", "quantity": 1]), 422, "unknown_menu_item")
        expectProblem(try server.send("PATCH", "/v1/bills/\(billId)/items/\(lineId)", json: ["quantity": 40]), 422, "unknown_menu_item")
        #expect(quantity(try server.bill(billId)) == 2)
        let one = try server.send("PATCH", "/v1/bills/\(billId)/items/\(lineId)", json: ["quantity": 1])
        #expect(one.status == 200, "\(one.text)")
        #expect(one.json["bill"]?["lines"]?.array.first?["unitPriceMinor"] == lowered.json["bill"]?["lines"]?.array.first?["unitPriceMinor"])
        let removed = try server.send("DELETE", "/v1/bills/\(billId)/items/\(lineId)")
        #expect(removed.status == 200, "\(removed.text)")
        #expect(removed.json["bill"]?["lines"]?.array.isEmpty == true)
    }

    /// Checks `billId` out and pays it by card; returns the pay answer.
    private func pay(_ server: Server, _ billId: String) throws -> TestResponse {
        let checkout = try server.send("POST", "/v1/bills/\(billId)/checkout")
        try #require(checkout.status == 200, "\(checkout.text)")
        let total = try #require(checkout.json["bill"]?["totalMinor"])
        let paid = try server.send("POST", "/v1/bills/\(billId)/pay", json: ["method": "card", "amountMinor": total])
        try #require(paid.status == 200, "\(paid.text)")
        return paid
    }

    @Test("table A open, table B opened and paid, A resumed and paid: the till has exactly one open bill, empty, and it is current")
    func payingLeavesOneEmptyBill() throws {
        let server = try Server()
        let tableA = try server.newBill()["id"]!.string
        try server.add("latte", 1, to: tableA)
        let tableB = try server.newBill()["id"]!.string
        try server.add("croissant", 1, to: tableB)
        let paidB = try pay(server, tableB)
        let next = try #require(paidB.json["nextBill"]?["id"]?.stringValue)

        #expect(try server.send("POST", "/v1/bills/\(tableA)/resume").status == 200)
        let paidA = try pay(server, tableA)
        let nextBill = try #require(paidA.json["nextBill"])
        #expect(nextBill["id"] == .string(next))
        #expect(nextBill["status"] == "open")
        #expect(nextBill["lines"] == [])
        // The answer's steps show the next bill, as after any payment.
        let steps = paidA.json["navigation"]!.array
        #expect(steps.map { $0["op"]!.string } == ["dismiss", "replace"])
        #expect(steps[1]["screen"]?["payload"] == nextBill)

        let listed = try server.get("/v1/bills").json["bills"]!.array
        #expect(listed.map { $0["id"]!.string } == [next])
        #expect(listed.first?["current"] == true)
        #expect(try server.bill(next)["lines"] == [])
        let launch = try server.get("/v1/launch").json["navigation"]!.array
        #expect(launch.last { $0["route"] == "bill" }?["screen"]?["payload"]?["id"] == .string(next))

        // "New bill" still opens a new bill while the empty one is there: 201 with its Location.
        let opened = try server.send("POST", "/v1/bills")
        #expect(opened.status == 201, "\(opened.text)")
        let openedId = try #require(opened.json["bill"]?["id"]?.stringValue)
        #expect(openedId != next)
        #expect(opened.header("Location") == "/v1/bills/\(openedId)")
        #expect(try server.get("/v1/bills").json["bills"]!.array.map { $0["id"]!.string } == [openedId, next])
    }
}
