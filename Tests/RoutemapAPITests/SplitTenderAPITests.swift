import Foundation
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Testing

@testable import RoutemapAPI

/// Split tender through the API's pipeline: partial payments, the bill's paid and due amounts
/// wherever it is shown, the steps that keep the cashier on the order summary, every refusal's
/// status and code (and that it changed nothing), refunds per payment, the receipt and the report.
@Suite("Split tender through the pipeline")
struct SplitTenderAPITests {
    /// A checked-out bill holding two lattes and a croissant (1414).
    private func checkedOut(_ api: InProcessAPI) async throws -> String {
        let bill = try await api.newBill()["id"]!.string
        try await api.add("latte", 2, to: bill)
        try await api.add("croissant", to: bill)
        let checkout = await api.send("POST", "/v1/bills/\(bill)/checkout")
        try #require(checkout.status == 200 && checkout.json["bill"]?["totalMinor"] == 1414, "\(checkout.text)")
        return bill
    }

    private func part(_ api: InProcessAPI, _ bill: String, _ amount: Int64, _ method: String = "card", tendered: Int64? = nil) async -> TestResponse {
        var body: JSONObject = ["method": .string(method), "amountMinor": .int(amount), "partial": true]
        if let tendered { body.append("tenderedMinor", .int(tendered)) }
        return await api.send("POST", "/v1/bills/\(bill)/pay", json: .object(body))
    }

    @Test("a partial payment: 200 with the payment and the bill still checked out, paid and due shown; the step replaces the order summary; the last payment pays it and the till goes on")
    func partsThenRest() async throws {
        let api = try await InProcessAPI()
        let bill = try await checkedOut(api)
        let first = await part(api, bill, 500, "cash", tendered: 1000)
        #expect(first.status == 200, "\(first.text)")
        let firstPayment = try #require(first.json["payment"])
        #expect(first.json["payment"]?["amountMinor"] == 500 && first.json["payment"]?["changeMinor"] == 500)
        let partly = try #require(first.json["bill"])
        #expect(partly["status"] == "checked_out" && partly["paidMinor"] == 500 && partly["dueMinor"] == 914, "\(first.text)")
        #expect(partly["payments"] == .array([firstPayment]))
        #expect(first.json["nextBill"] == partly)
        let steps = try #require(first.json["navigation"]?.arrayValue)
        #expect(steps.map { $0["op"]!.string } == ["replace"] && steps[0]["route"] == "orderSummary", "\(first.text)")
        let summary = try #require(steps[0]["screen"]?["payload"])
        #expect(summary["paidMinor"] == 500 && summary["dueMinor"] == 914 && summary["totalMinor"] == 1414)
        #expect(summary["payments"] == .array([firstPayment]))
        // Partly paid: pay (the rest) and pay part only; no cancel, no void.
        #expect(steps[0]["screen"]?["actions"]?.array.map { $0["name"]!.string } == ["pay", "payPart"])
        #expect(try await api.bill(bill) == partly)

        let second = await part(api, bill, 414)
        #expect(second.status == 200 && second.json["bill"]?["dueMinor"] == 500, "\(second.text)")
        // Without "partial", the amount is what is due: the client confirms it.
        let rest = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "card", "amountMinor": 500])
        #expect(rest.status == 200, "\(rest.text)")
        let paid = try #require(rest.json["bill"])
        #expect(paid["status"] == "paid" && paid["paidMinor"] == 1414 && paid["dueMinor"] == 0)
        #expect(paid["payments"]?.array.map { $0["amountMinor"]! } == [500, 414, 500])
        #expect(paid["payments"]?.array.map { $0["receiptNumber"]! } == [1, 2, 3])
        #expect(rest.json["nextBill"]?["id"] != .string(bill) && rest.json["nextBill"]?["status"] == "open")
        #expect((rest.json["navigation"]?.array ?? []).map { $0["op"]!.string } == ["dismiss", "replace"], "\(rest.text)")
        let read = await api.get("/v1/bills/\(bill)")
        #expect(read.json["payment"] == rest.json["payment"] && read.json["payments"] == paid["payments"], "\(read.text)")
    }

    @Test("refused payments change nothing: partial 0 (400), partial beyond what is due (409 amount_exceeds_due), the total once part is paid (422 amount_mismatch with the amount due)")
    func refusals() async throws {
        let api = try await InProcessAPI()
        let bill = try await checkedOut(api)
        let zero = await part(api, bill, 0)
        expectProblem(zero, 400, "invalid_field")
        #expect(zero.json["field"] == "amountMinor")
        expectProblem(await part(api, bill, 1415), 409, "amount_exceeds_due")
        #expect(api.store.snapshot.payments.isEmpty)
        _ = await part(api, bill, 1000)
        let before = try await api.bill(bill)
        let over = await part(api, bill, 415)
        expectProblem(over, 409, "amount_exceeds_due")
        #expect(over.json["dueMinor"] == 414)
        let total = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "card", "amountMinor": 1414])
        expectProblem(total, 422, "amount_mismatch")
        #expect(total.json["expectedMinor"] == 414)
        let notBool = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "card", "amountMinor": 14, "partial": "yes"])
        expectProblem(notBool, 400, "invalid_field")
        #expect(try await api.bill(bill) == before)
        #expect(api.store.snapshot.payments.count == 1)
    }

    @Test("a partly paid bill refuses cancel and void with 409 bill_partly_paid, and nothing changes; it can still be transferred")
    func partlyPaidIsPaidToTheEnd() async throws {
        let api = try await InProcessAPI()
        let bill = try await checkedOut(api)
        _ = await part(api, bill, 400)
        let before = try await api.bill(bill)
        let cancel = await api.send("POST", "/v1/bills/\(bill)/checkout/cancel")
        expectProblem(cancel, 409, "bill_partly_paid")
        #expect(cancel.json["paidMinor"] == 400)
        expectProblem(await api.send("POST", "/v1/bills/\(bill)/void", json: ["reason": "Left"]), 409, "bill_partly_paid")
        #expect(try await api.bill(bill) == before)
        // A manager's void is refused the same way.
        let manager = RefundAPITests.bearer(try await DeviceRoleTests.manager(api))
        expectProblem(await api.send("POST", "/v1/bills/\(bill)/void", json: ["reason": "Left"], headers: manager), 409, "bill_partly_paid")
        #expect(try await api.bill(bill) == before)
    }

    @Test("refunds of a split bill name their payment (422 payment_id_required, unknown_payment otherwise); each payment's limit is its own; the receipt lists every payment; the report counts the bill once")
    func refundsReceiptReport() async throws {
        let api = try await InProcessAPI()
        let manager = RefundAPITests.bearer(try await DeviceRoleTests.manager(api))
        let bill = try await checkedOut(api)
        let cash = await part(api, bill, 414, "cash")
        let card = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "card", "amountMinor": 1000, "tipMinor": 100])
        #expect(card.status == 200, "\(card.text)")
        let cashId = try #require(cash.json["payment"]?["id"]), cardId = try #require(card.json["payment"]?["id"])

        let unnamed = await api.send("POST", "/v1/bills/\(bill)/refund", json: ["amountMinor": 10, "reason": "Cold"], headers: manager)
        expectProblem(unnamed, 422, "payment_id_required")
        #expect(unnamed.json["paymentIds"] == [cashId, cardId])
        let unknown = await api.send(
            "POST", "/v1/bills/\(bill)/refund", json: ["amountMinor": 10, "reason": "Cold", "paymentId": "pay_nope"], headers: manager)
        expectProblem(unknown, 422, "unknown_payment")
        // 150 accented letters are within the spec's 200 characters (though 300 UTF-8 bytes): a
        // payment it does not name, not a bad member.
        let accented = await api.send(
            "POST", "/v1/bills/\(bill)/refund", json: ["amountMinor": 10, "reason": "Cold", "paymentId": .string(String(repeating: "é", count: 150))],
            headers: manager)
        expectProblem(accented, 422, "unknown_payment")
        let beyond = await api.send(
            "POST", "/v1/bills/\(bill)/refund", json: ["amountMinor": 415, "reason": "Cold", "paymentId": cashId], headers: manager)
        expectProblem(beyond, 422, "refund_exceeds_payment")
        #expect(beyond.json["refundableMinor"] == 414)
        #expect(api.store.snapshot.refunds.isEmpty)

        let refund = await api.send(
            "POST", "/v1/bills/\(bill)/refund", json: ["amountMinor": 414, "reason": "Cold", "paymentId": cashId], headers: manager)
        #expect(refund.status == 200, "\(refund.text)")
        #expect(refund.json["refund"]?["method"] == "cash" && refund.json["refund"]?["paymentId"] == cashId)
        #expect(refund.json["refundedMinor"] == 414 && refund.json["refundableMinor"] == 1000)
        let list = await api.get("/v1/bills/\(bill)/refunds", headers: manager)
        #expect(list.json["refundableMinor"] == 1000, "\(list.text)")

        let receipt = await api.get("/v1/bills/\(bill)/receipt")
        #expect(receipt.status == 200, "\(receipt.text)")
        #expect(receipt.json["payments"] == .array([cash.json["payment"], card.json["payment"]].compactMap { $0 }))
        #expect(receipt.json["payment"] == card.json["payment"] && receipt.json["receiptNumber"] == card.json["payment"]!["receiptNumber"])
        #expect(receipt.json["tipMinor"] == 100 && receipt.json["chargedMinor"] == 1514 && receipt.json["refundedMinor"] == 414)

        let day = { (offset: TimeInterval) in ISO8601DateFormatter().string(from: Date(timeIntervalSinceNow: offset)) }
        let report = await api.get("/v1/reports/sales?from=\(day(-86_400))&to=\(day(86_400))", headers: manager)
        #expect(report.json["sales"]?["bills"] == 1 && report.json["sales"]?["totalMinor"] == 1414, "\(report.text)")
        #expect(report.json["payments"]?["count"] == 2 && report.json["payments"]?["amountMinor"] == 1414)
        #expect(report.json["payments"]?["byMethod"]?["cash"]?["count"] == 1 && report.json["payments"]?["byMethod"]?["card"]?["amountMinor"] == 1000)
    }

    @Test("a partial payment is replayed under its key; the same key with another amount is 422 idempotency_key_reused")
    func replay() async throws {
        let api = try await InProcessAPI()
        let bill = try await checkedOut(api)
        let key = [("Idempotency-Key", "split-1")]
        let body: JSON = ["method": "card", "amountMinor": 300, "partial": true]
        let first = await api.send("POST", "/v1/bills/\(bill)/pay", json: body, headers: key)
        let again = await api.send("POST", "/v1/bills/\(bill)/pay", json: body, headers: key)
        #expect(first.status == 200 && again.status == 200 && again.header("Idempotent-Replayed") == "true")
        #expect(again.body == first.body)
        expectProblem(
            await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "card", "amountMinor": 301, "partial": true], headers: key), 422,
            "idempotency_key_reused")
        #expect(api.store.snapshot.payments.count == 1)
    }
}
