import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// Receipts over HTTP against the real binary (SQLite, or PostgreSQL when
/// `ROUTEMAP_TEST_DATABASE_URL` is set): numbered payments, the receipt with the shop's details
/// from a flag and the environment, who may read it, a replayed pay's number, a restart.
@Suite("Receipts, end to end")
struct ReceiptsEndToEndTests {
    static let shopArguments = ["--manager-enrollment-code", ManagerBillsEndToEndTests.managerCode, "--shop-name", "Harbour Coffee"]
    static let shopEnvironment = ["ROUTEMAP_SHOP_ADDRESS": "12 Harbour Street, Bristol", "ROUTEMAP_SHOP_TAX_ID": "GB123456789"]

    /// A bill of `till` holding one latte, checked out; its id and total.
    static func checkedOut(_ till: TestHTTPClient) throws -> (id: String, total: Int64) {
        let bill = try #require(till.request("POST", "/v1/bills").json["bill"]?["id"]?.stringValue)
        #expect(try till.json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "latte", "quantity": 1]).status == 200)
        let frozen = try till.request("POST", "/v1/bills/\(bill)/checkout")
        return (bill, try #require(frozen.json["bill"]?["totalMinor"]?.int64Value, "\(frozen.text)"))
    }

    @Test("payments numbered 1, 2; a replayed pay answers its number again; the receipt with the shop's details, for the till and a manager; refusals; the same after a restart")
    func receipts() throws {
        let process = try RoutemapProcess(arguments: Self.shopArguments, environment: Self.shopEnvironment)
        defer { process.cleanUp() }
        let till = try process.client()
        let other = try process.client(authorized: false)
        other.defaultHeaders = [("Authorization", "Bearer \(try process.enroll(name: "Back counter"))")]
        let manager = try process.client(authorized: false)
        let enrolled = try manager.json(
            "POST", "/v1/devices", ["name": "Owner", "enrollmentCode": .string(ManagerBillsEndToEndTests.managerCode), "role": "manager"])
        try #require(enrolled.status == 201, "\(enrolled.text)")
        manager.defaultHeaders = [("Authorization", "Bearer \(enrolled.json["token"]!.string)")]

        let (first, total) = try Self.checkedOut(till)
        // Not paid yet: 409 with the status.
        let unpaid = try till.request("GET", "/v1/bills/\(first)/receipt")
        expectProblem(unpaid, 409, "bill_not_paid")
        #expect(unpaid.json["detail"]?.stringValue?.contains("checked_out") == true, "\(unpaid.text)")
        let body: JSON = ["method": "cash", "amountMinor": .int(total), "tenderedMinor": 1000]
        let paid = try till.json("POST", "/v1/bills/\(first)/pay", body, headers: [("Idempotency-Key", "pay-first")])
        try #require(paid.status == 200, "\(paid.text)")
        let payment = try #require(paid.json["payment"])
        #expect(payment["receiptNumber"] == 1, "\(paid.text)")
        let replayed = try till.json("POST", "/v1/bills/\(first)/pay", body, headers: [("Idempotency-Key", "pay-first")])
        #expect(replayed.header("Idempotent-Replayed") == "true" && replayed.json["payment"] == payment, "\(replayed.text)")
        let (second, secondTotal) = try Self.checkedOut(other)
        let paidSecond = try other.json("POST", "/v1/bills/\(second)/pay", ["method": "card", "amountMinor": .int(secondTotal)], headers: [("Idempotency-Key", "pay-2")])
        #expect(paidSecond.json["payment"]?["receiptNumber"] == 2, "\(paidSecond.text)")
        #expect(try till.request("GET", "/v1/payments/\(payment["id"]!.string)").json["receiptNumber"] == 1)

        let receipt = try till.request("GET", "/v1/bills/\(first)/receipt")
        #expect(receipt.status == 200 && receipt.header("Content-Type") == "application/json", "\(receipt.text)")
        #expect(receipt.json["receiptNumber"] == 1 && receipt.json["billId"]?.stringValue == first)
        #expect(receipt.json["shop"] == ["name": "Harbour Coffee", "address": "12 Harbour Street, Bristol", "taxId": "GB123456789"], "\(receipt.text)")
        #expect(receipt.json["paidAt"] == payment["createdAt"] && receipt.json["payment"] == payment)
        #expect(receipt.json["totalMinor"]?.int64Value == total && receipt.json["tax"]?["rateBps"] == 875 && receipt.json["currency"] == "USD")
        #expect(receipt.json["lines"]?.arrayValue?.count == 1 && receipt.json["refunds"] == [] && receipt.json["refundedMinor"] == 0)
        #expect(try manager.request("GET", "/v1/bills/\(first)/receipt").json == receipt.json)
        expectProblem(try other.request("GET", "/v1/bills/\(first)/receipt"), 404, "not_found")
        expectProblem(try till.request("GET", "/v1/bills/bill_nope/receipt"), 404, "not_found")

        // A refund shows on it; then the same receipts after a restart.
        let refund = try manager.json("POST", "/v1/bills/\(first)/refund", ["amountMinor": 100, "reason": "Cold latte"])
        #expect(refund.status == 200, "\(refund.text)")
        let refunded = try till.request("GET", "/v1/bills/\(first)/receipt")
        #expect(refunded.json["refunds"] == [refund.json["refund"]!] && refunded.json["refundedMinor"] == 100, "\(refunded.text)")
        #expect(process.stop() == 0)
        let restarted = try RoutemapProcess(arguments: Self.shopArguments, environment: Self.shopEnvironment, databasePath: process.databasePath)
        defer { restarted.cleanUp() }
        let reader = try restarted.client(authorized: false)
        reader.defaultHeaders = till.defaultHeaders
        #expect(try reader.request("GET", "/v1/bills/\(first)/receipt").json == refunded.json)
        reader.defaultHeaders = other.defaultHeaders
        #expect(try reader.request("GET", "/v1/bills/\(second)/receipt").json["receiptNumber"] == 2)
    }
}
