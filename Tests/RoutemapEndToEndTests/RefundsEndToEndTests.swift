import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// A manager's refunds over HTTP against the real binary (SQLite, or PostgreSQL when
/// `ROUTEMAP_TEST_DATABASE_URL` is set): made, listed, refused, replayed, read back after a
/// restart, and in the sales report.
@Suite("Refunds, end to end")
struct RefundsEndToEndTests {
    /// A bill of `till` holding `quantity` lattes, paid by `method` (cash tendered exactly); its id and total.
    static func paidBill(_ till: TestHTTPClient, lattes quantity: Int64, _ method: String) throws -> (id: String, total: Int64) {
        let bill = try #require(till.request("POST", "/v1/bills").json["bill"]?["id"]?.stringValue)
        #expect(try till.json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "latte", "quantity": .int(quantity)]).status == 200)
        let frozen = try till.request("POST", "/v1/bills/\(bill)/checkout")
        let total = try #require(frozen.json["bill"]?["totalMinor"]?.int64Value, "\(frozen.text)")
        let paid = try till.json("POST", "/v1/bills/\(bill)/pay", ["method": .string(method), "amountMinor": .int(total)], headers: ManagerBillsEndToEndTests.key("pay-\(bill)"))
        try #require(paid.status == 200, "\(paid.text)")
        return (bill, total)
    }

    @Test("a manager refunds a till's paid bills in parts; refusals; a keyed retry replays; the list survives a restart; the report sums them")
    func refunds() throws {
        let shop = try ManagerBillsEndToEndTests.Shop()
        defer { shop.process.cleanUp() }
        let till = shop.lost
        let (card, cardTotal) = try Self.paidBill(till, lattes: 2, "card")
        let (cash, cashTotal) = try Self.paidBill(till, lattes: 1, "cash")
        let before = try shop.manager.request("GET", "/v1/bills/\(card)")

        // A till may not; an unknown bill is 404; an unpaid bill 409.
        expectProblem(try till.json("POST", "/v1/bills/\(card)/refund", ["amountMinor": 1, "reason": "mine"]), 403, "manager_only")
        expectProblem(try till.request("GET", "/v1/bills/\(card)/refunds"), 403, "manager_only")
        expectProblem(try shop.manager.json("POST", "/v1/bills/bill_nope/refund", ["amountMinor": 1, "reason": "x"]), 404, "not_found")
        let open = try #require(till.request("POST", "/v1/bills").json["bill"]?["id"]?.stringValue)
        let unpaid = try shop.manager.json("POST", "/v1/bills/\(open)/refund", ["amountMinor": 1, "reason": "x"])
        expectProblem(unpaid, 409, "bill_not_paid")
        #expect(unpaid.json["detail"]?.stringValue?.contains("open") == true, "\(unpaid.text)")
        expectProblem(try shop.manager.json("POST", "/v1/bills/\(card)/refund", ["amountMinor": 0, "reason": "x"]), 400, "invalid_field")

        let first = try shop.manager.json("POST", "/v1/bills/\(card)/refund", ["amountMinor": 100, "reason": "Cold latte"], headers: ManagerBillsEndToEndTests.key("r1"))
        #expect(first.status == 200, "\(first.text)")
        #expect(first.json["refund"]?["method"] == "card" && first.json["refund"]?["billId"]?.stringValue == card)
        #expect(first.json["refundedMinor"]?.int64Value == 100 && first.json["refundableMinor"]?.int64Value == cardTotal - 100)
        let replay = try shop.manager.json("POST", "/v1/bills/\(card)/refund", ["amountMinor": 100, "reason": "Cold latte"], headers: ManagerBillsEndToEndTests.key("r1"))
        #expect(replay.status == 200 && replay.json == first.json && replay.header("Idempotent-Replayed") == "true", "\(replay.text)")

        let over = try shop.manager.json("POST", "/v1/bills/\(card)/refund", ["amountMinor": .int(cardTotal), "reason": "all"], headers: ManagerBillsEndToEndTests.key("r2"))
        expectProblem(over, 422, "refund_exceeds_payment")
        #expect(over.json["refundableMinor"]?.int64Value == cardTotal - 100, "\(over.text)")
        let rest = try shop.manager.json("POST", "/v1/bills/\(card)/refund", ["amountMinor": .int(cardTotal - 100), "reason": "Returned the other"])
        #expect(rest.status == 200 && rest.json["refundableMinor"]?.int64Value == 0, "\(rest.text)")
        let cashRefund = try shop.manager.json("POST", "/v1/bills/\(cash)/refund", ["amountMinor": 50, "reason": "Overcharged"])
        #expect(cashRefund.status == 200 && cashRefund.json["refund"]?["method"] == "cash", "\(cashRefund.text)")

        // The bill is as it was; the list is the same after a restart.
        #expect(try shop.manager.request("GET", "/v1/bills/\(card)").json == before.json)
        let listed = try shop.manager.request("GET", "/v1/bills/\(card)/refunds")
        #expect(listed.status == 200, "\(listed.text)")
        #expect(listed.json["refunds"]?.arrayValue?.map { $0["amountMinor"]?.int64Value } == [100, cardTotal - 100])
        #expect(listed.json["refunds"]?.arrayValue?.first == first.json["refund"])
        #expect(listed.json["refundedMinor"]?.int64Value == cardTotal && listed.json["refundableMinor"] == 0)
        #expect(shop.process.stop() == 0)
        let restarted = try RoutemapProcess(
            arguments: ["--manager-enrollment-code", ManagerBillsEndToEndTests.managerCode], databasePath: shop.process.databasePath)
        defer { restarted.cleanUp() }
        let manager = try restarted.client(authorized: false)
        manager.defaultHeaders = shop.manager.defaultHeaders
        #expect(try manager.request("GET", "/v1/bills/\(card)/refunds").json == listed.json)
        let over2 = try manager.json("POST", "/v1/bills/\(card)/refund", ["amountMinor": .int(cardTotal), "reason": "all"], headers: ManagerBillsEndToEndTests.key("r2"))
        #expect(over2.status == 422 && over2.header("Idempotent-Replayed") == "true" && over2.json == over.json, "\(over2.text)")

        let from = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3_600))
        let to = ISO8601DateFormatter().string(from: Date().addingTimeInterval(3_600))
        let report = try manager.request("GET", "/v1/reports/sales?from=\(from)&to=\(to)")
        #expect(report.status == 200, "\(report.text)")
        #expect(report.json["refunds"]?["count"] == 3 && report.json["refunds"]?["amountMinor"]?.int64Value == cardTotal + 50, "\(report.text)")
        #expect(report.json["refunds"]?["card"]?["amountMinor"]?.int64Value == cardTotal && report.json["refunds"]?["cash"]?["count"] == 1)
        #expect(report.json["payments"]?["byMethod"]?["cash"]?["amountMinor"]?.int64Value == cashTotal)
    }
}
