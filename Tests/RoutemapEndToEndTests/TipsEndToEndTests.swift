import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// Tips over HTTP against the real binary (SQLite, or PostgreSQL when
/// `ROUTEMAP_TEST_DATABASE_URL` is set): paid, replayed, shown wherever the payment is, on the
/// receipt, not refundable, and kept across a restart.
@Suite("Tips, end to end")
struct TipsEndToEndTests {
    @Test("a cash payment with a tip: its change, a replay, another tip under the same key refused; the receipt's charge; a refund of more than the total refused; the same after a restart")
    func tips() throws {
        let process = try RoutemapProcess(arguments: ["--manager-enrollment-code", ManagerBillsEndToEndTests.managerCode])
        defer { process.cleanUp() }
        let till = try process.client()
        let manager = try process.client(authorized: false)
        let enrolled = try manager.json(
            "POST", "/v1/devices", ["name": "Owner", "enrollmentCode": .string(ManagerBillsEndToEndTests.managerCode), "role": "manager"])
        try #require(enrolled.status == 201, "\(enrolled.text)")
        manager.defaultHeaders = [("Authorization", "Bearer \(enrolled.json["token"]!.string)")]

        // One latte: 475 + 42 = 517; 10.00 handed over with a tip of 0.80: change 4.03.
        let (bill, total) = try ReceiptsEndToEndTests.checkedOut(till)
        #expect(total == 517)
        let short = try till.json("POST", "/v1/bills/\(bill)/pay", ["method": "cash", "amountMinor": 517, "tenderedMinor": 550, "tipMinor": 80],
            headers: [("Idempotency-Key", "pay-short")])
        expectProblem(short, 422, "insufficient_tender")
        let body: JSON = ["method": "cash", "amountMinor": 517, "tenderedMinor": 1000, "tipMinor": 80]
        let paid = try till.json("POST", "/v1/bills/\(bill)/pay", body, headers: [("Idempotency-Key", "pay-tip")])
        try #require(paid.status == 200, "\(paid.text)")
        let payment = try #require(paid.json["payment"])
        #expect(payment["tipMinor"] == 80 && payment["chargedMinor"] == 597 && payment["changeMinor"] == 403, "\(paid.text)")
        let replayed = try till.json("POST", "/v1/bills/\(bill)/pay", body, headers: [("Idempotency-Key", "pay-tip")])
        #expect(replayed.header("Idempotent-Replayed") == "true" && replayed.json["payment"] == payment, "\(replayed.text)")
        let otherTip = try till.json(
            "POST", "/v1/bills/\(bill)/pay", ["method": "cash", "amountMinor": 517, "tenderedMinor": 1000, "tipMinor": 90],
            headers: [("Idempotency-Key", "pay-tip")])
        expectProblem(otherTip, 422, "idempotency_key_reused")
        #expect(try till.request("GET", "/v1/payments/\(payment["id"]!.string)").json == payment)

        let receipt = try till.request("GET", "/v1/bills/\(bill)/receipt")
        #expect(receipt.json["totalMinor"] == 517 && receipt.json["tipMinor"] == 80 && receipt.json["chargedMinor"] == 597, "\(receipt.text)")
        #expect(receipt.json["payment"] == payment)
        // Refunds give back the sale, not the tip.
        let over = try manager.json("POST", "/v1/bills/\(bill)/refund", ["amountMinor": 518, "reason": "Cold latte"])
        expectProblem(over, 422, "refund_exceeds_payment")
        #expect(over.json["refundableMinor"] == 517, "\(over.text)")

        #expect(process.stop() == 0)
        let restarted = try RoutemapProcess(arguments: [], databasePath: process.databasePath)
        defer { restarted.cleanUp() }
        let reader = try restarted.client(authorized: false)
        reader.defaultHeaders = till.defaultHeaders
        #expect(try reader.request("GET", "/v1/bills/\(bill)/receipt").json == receipt.json)
    }
}
