import Foundation
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Testing

@testable import RoutemapAPI

/// Receipts through the API's pipeline: the receipt's JSON, who may read it, every refusal's
/// status and code, and the receipt number in the payment wherever the payment is shown.
@Suite("Receipts through the pipeline")
struct ReceiptAPITests {
    static func bearer(_ token: String) -> [(String, String)] { DeviceRoleTests.bearer(token) }

    static func shop() throws -> ShopDetails {
        try ShopDetails(name: "Harbour Coffee", address: "12 Harbour Street, Bristol", taxId: "GB123456789")
    }

    /// The enrolled till's bill holding two lattes and a croissant (950 + 350 = 1300, tax 83 + 31 = 114), paid
    /// cash with 20.00; the pay answer.
    private func paidBill(_ api: InProcessAPI) async throws -> TestResponse {
        let bill = try await api.newBill()["id"]!.string
        try await api.add("latte", 2, to: bill)
        try await api.add("croissant", to: bill)
        let total = try #require(await api.send("POST", "/v1/bills/\(bill)/checkout").json["bill"]?["totalMinor"])
        let paid = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "cash", "amountMinor": total, "tenderedMinor": 2000])
        try #require(paid.status == 200, "\(paid.text)")
        return paid
    }

    @Test("the till's receipt of its paid bill: 200 with the number, the shop, the lines, the totals and tax, the payment, no refunds; a manager's refund then shows on it, for the till and the manager")
    func receipt() async throws {
        let api = try await InProcessAPI(shop: try Self.shop())
        let paid = try await paidBill(api)
        let bill = paid.json["bill"]!
        let billId = bill["id"]!.string
        let payment = try #require(paid.json["payment"])
        #expect(payment["receiptNumber"] == 1, "\(paid.text)")

        let read = await api.get("/v1/bills/\(billId)/receipt")
        #expect(read.status == 200, "\(read.text)")
        #expect(read.header("Content-Type") == "application/json")
        let expected: JSON = [
            "receiptNumber": 1,
            "shop": ["name": "Harbour Coffee", "address": "12 Harbour Street, Bristol", "taxId": "GB123456789"],
            "billId": .string(billId),
            "paidAt": payment["createdAt"]!,
            "lines": bill["lines"]!,
            "subtotalMinor": 1300,
            "discountMinor": 0,
            "tax": ["rateBps": 875, "amountMinor": 114],
            "totalMinor": 1414,
            "tipMinor": 0,
            "chargedMinor": 1414,
            "currency": "USD",
            "payment": payment,
            "payments": [payment],
            "refunds": [],
            "refundedMinor": 0,
        ]
        #expect(read.json == expected, "\(read.text)")
        #expect(read.json["lines"]?.arrayValue?.map { $0["lineTotalMinor"] } == [950, 350])
        #expect(payment["tenderedMinor"] == 2000 && payment["changeMinor"] == 586 && payment["method"] == "cash")
        let head = await api.send("HEAD", "/v1/bills/\(billId)/receipt")
        #expect(head.status == 200 && head.body.isEmpty)

        let manager = Self.bearer(try await DeviceRoleTests.manager(api))
        let refunded = await api.send("POST", "/v1/bills/\(billId)/refund", json: ["amountMinor": 475, "reason": "Cold latte"], headers: manager)
        #expect(refunded.status == 200, "\(refunded.text)")
        for headers in [[], manager] {
            let again = await api.get("/v1/bills/\(billId)/receipt", headers: headers)
            #expect(again.status == 200, "\(again.text)")
            #expect(again.json["refunds"] == [refunded.json["refund"]!] && again.json["refundedMinor"] == 475, "\(again.text)")
            #expect(again.json["receiptNumber"] == 1 && again.json["payment"] == payment)
        }
    }

    @Test("the receipt number is in the payment wherever it is shown: pay's answer, GET /v1/payments/{id}, the paid bill; the next payment has the next number")
    func numberInPayments() async throws {
        let api = try await InProcessAPI()
        let first = try await paidBill(api)
        let second = try await paidBill(api)
        for (paid, number) in [(first, 1), (second, 2)] as [(TestResponse, Int64)] {
            let payment = try #require(paid.json["payment"])
            #expect(payment["receiptNumber"] == .int(number), "\(paid.text)")
            #expect(await api.get("/v1/payments/\(payment["id"]!.string)").json == payment)
            #expect(try await api.bill(paid.json["bill"]!["id"]!.string)["payment"] == payment)
            #expect(await api.get("/v1/bills/\(paid.json["bill"]!["id"]!.string)/receipt").json["receiptNumber"] == .int(number))
        }
    }

    @Test("a shop with no details set: the receipt's shop is empty")
    func noShopDetails() async throws {
        let api = try await InProcessAPI()
        let billId = try await paidBill(api).json["bill"]!["id"]!.string
        let read = await api.get("/v1/bills/\(billId)/receipt")
        #expect(read.status == 200 && read.json["shop"] == [:], "\(read.text)")
    }

    @Test("refusals: another till 404, an unpaid bill 409 bill_not_paid with its status (for the till and a manager), an unknown bill 404, no token 401; nothing changes")
    func refusals() async throws {
        let api = try await InProcessAPI(shop: try Self.shop())
        let paid = try await paidBill(api).json["bill"]!["id"]!.string
        let other = await DeviceRoleTests.enroll(api, name: "Back", code: InProcessAPI.enrollmentCode)
        let otherTill = Self.bearer(try #require(other.json["token"]?.stringValue))
        let manager = Self.bearer(try await DeviceRoleTests.manager(api))
        let before = api.store.snapshot

        expectProblem(await api.get("/v1/bills/\(paid)/receipt", headers: otherTill), 404, "not_found")
        expectProblem(await api.get("/v1/bills/bill_nope/receipt"), 404, "not_found")
        expectProblem(await api.get("/v1/bills/bill_nope/receipt", headers: manager), 404, "not_found")
        expectProblem(await api.send("GET", "/v1/bills/\(paid)/receipt", authorized: false), 401, "unauthorized")

        let open = try await api.newBill()["id"]!.string
        try await api.add("latte", to: open)
        for headers in [[], manager] {
            let unpaid = await api.get("/v1/bills/\(open)/receipt", headers: headers)
            expectProblem(unpaid, 409, "bill_not_paid")
            #expect(unpaid.json["detail"]?.stringValue?.contains("open") == true, "\(unpaid.text)")
        }
        _ = await api.send("POST", "/v1/bills/\(open)/checkout")
        expectProblem(await api.get("/v1/bills/\(open)/receipt"), 409, "bill_not_paid")
        // Reading changed nothing but the bill checked out meanwhile.
        #expect(api.store.snapshot.payments == before.payments && api.store.snapshot.refunds == before.refunds)
    }
}
