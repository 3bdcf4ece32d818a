import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// What the contract run (scripts/contract: schemathesis against openapi.yaml) found the server
/// doing differently from the spec, pinned down one test each.
@Suite("Contract, end to end")
struct ContractTests {
    @Test("an integer member may be written with a zero fraction or an exponent, as JSON Schema's integer allows")
    func integralNumbers() throws {
        let server = try Server()
        let billId = try server.newBill()["id"]!.string
        let added = try server.client.request(
            "POST", "/v1/bills/\(billId)/items", headers: [("Content-Type", "application/json")],
            body: Array(#"{"menuItemId":"latte","quantity":2.0}"#.utf8))
        #expect(added.status == 200, "\(added.text)")
        let line = try #require(added.json["bill"]?["lines"]?.array.first)
        #expect(line["quantity"] == 2)
        let lineId = line["lineId"]!.string
        let changed = try server.client.request(
            "PATCH", "/v1/bills/\(billId)/items/\(lineId)", headers: [("Content-Type", "application/json")],
            body: Array(#"{"quantity":3e0}"#.utf8))
        #expect(changed.status == 200, "\(changed.text)")
        #expect(changed.json["bill"]?["lines"]?.array.first?["quantity"] == 3)

        // Still refused: a real fraction, and a number too large to be exact.
        for quantity in ["2.5", "1e300", "9007199254740993.0"] {
            let refused = try server.client.request(
                "PATCH", "/v1/bills/\(billId)/items/\(lineId)", headers: [("Content-Type", "application/json")],
                body: Array(#"{"quantity":\#(quantity)}"#.utf8))
            expectProblem(refused, 400, "invalid_field")
            #expect(refused.json["field"] == "quantity")
        }

        let checkout = try server.send("POST", "/v1/bills/\(billId)/checkout")
        try #require(checkout.status == 200, "\(checkout.text)")
        let total = checkout.json["bill"]!["totalMinor"]!.int
        let paid = try server.client.request(
            "POST", "/v1/bills/\(billId)/pay",
            headers: [("Content-Type", "application/json"), ("Idempotency-Key", UUID().uuidString)],
            body: Array(#"{"method":"cash","amountMinor":\#(total).0,"tenderedMinor":\#(total + 100)e0}"#.utf8))
        #expect(paid.status == 200, "\(paid.text)")
        #expect(paid.json["payment"]?["changeMinor"] == 100)
    }
}
