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
}
