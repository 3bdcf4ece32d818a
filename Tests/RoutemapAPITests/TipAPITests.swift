import Foundation
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Testing

@testable import RoutemapAPI

/// Tips through the API's pipeline: `tipMinor` on pay, in every payment shown, on the receipt
/// and in the sales report; its refusals; its replay under a key.
@Suite("Tips through the pipeline")
struct TipAPITests {
    /// The enrolled till's checked-out bill of two lattes (950 + 83 = 1033): its id.
    private func checkedOut(_ api: InProcessAPI) async throws -> String {
        let bill = try await api.newBill()["id"]!.string
        try await api.add("latte", 2, to: bill)
        let checkout = await api.send("POST", "/v1/bills/\(bill)/checkout")
        try #require(checkout.json["bill"]?["totalMinor"] == 1033, "\(checkout.text)")
        return bill
    }

    @Test("cash with a tip: change is tendered − total − tip; the tip and charge are in pay's answer, GET /v1/payments/{id}, the paid bill and the receipt; the bill's total and tax stay")
    func cashTip() async throws {
        let api = try await InProcessAPI()
        let bill = try await checkedOut(api)
        let paid = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "cash", "amountMinor": 1033, "tenderedMinor": 2000, "tipMinor": 150])
        #expect(paid.status == 200, "\(paid.text)")
        let payment = try #require(paid.json["payment"])
        #expect(payment["amountMinor"] == 1033 && payment["tipMinor"] == 150 && payment["chargedMinor"] == 1183, "\(paid.text)")
        #expect(payment["tenderedMinor"] == 2000 && payment["changeMinor"] == 817, "\(paid.text)")
        #expect(paid.json["bill"]?["totalMinor"] == 1033 && paid.json["bill"]?["taxMinor"] == 83)

        let read = await api.get("/v1/payments/\(payment["id"]!.string)")
        #expect(read.status == 200 && read.json == payment, "\(read.text)")
        #expect(await api.get("/v1/bills/\(bill)").json["payment"] == payment)
        let receipt = await api.get("/v1/bills/\(bill)/receipt")
        #expect(receipt.status == 200, "\(receipt.text)")
        #expect(receipt.json["totalMinor"] == 1033 && receipt.json["tipMinor"] == 150 && receipt.json["chargedMinor"] == 1183, "\(receipt.text)")
        #expect(receipt.json["payment"] == payment)
    }

    @Test("card with a tip: tendered is the total and tip, absent or exactly that; another tender is 400 invalid_field tenderedMinor")
    func cardTip() async throws {
        let api = try await InProcessAPI()
        for tendered in [1033, 1082, 1084] as [Int64] {
            let bill = try await checkedOut(api)
            let refused = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "card", "amountMinor": 1033, "tenderedMinor": .int(tendered), "tipMinor": 50])
            expectProblem(refused, 400, "invalid_field")
            #expect(refused.json["field"] == "tenderedMinor")
        }
        for tendered in [nil, 1083] as [Int64?] {
            let bill = try await checkedOut(api)
            var body: JSON = ["method": "card", "amountMinor": 1033, "tipMinor": 50]
            if let tendered, case .object(var object) = body { object.append("tenderedMinor", .int(tendered)); body = .object(object) }
            let paid = await api.send("POST", "/v1/bills/\(bill)/pay", json: body)
            #expect(paid.status == 200, "\(paid.text)")
            #expect(paid.json["payment"]?["tenderedMinor"] == 1083 && paid.json["payment"]?["changeMinor"] == 0 && paid.json["payment"]?["tipMinor"] == 50)
        }
        // No tip: 0, and the charge is the amount.
        let bill = try await checkedOut(api)
        let plain = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "card", "amountMinor": 1033])
        #expect(plain.json["payment"]?["tipMinor"] == 0 && plain.json["payment"]?["chargedMinor"] == 1033, "\(plain.text)")
    }

    @Test(
        "a tip out of range or of the wrong type is 400 invalid_field naming tipMinor, and nothing changes; cash short of the tip is 422 insufficient_tender",
        arguments: [.int(-1), .int(10_000_000_000_001), "150", .double(1.5), true, .array([]), .object([:])] as [JSON])
    func refused(tip: JSON) async throws {
        let api = try await InProcessAPI()
        let bill = try await checkedOut(api)
        let refused = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "cash", "amountMinor": 1033, "tipMinor": tip])
        expectProblem(refused, 400, "invalid_field")
        #expect(refused.json["field"] == "tipMinor", "\(refused.text)")
        let short = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "cash", "amountMinor": 1033, "tenderedMinor": 1100, "tipMinor": 100])
        expectProblem(short, 422, "insufficient_tender")
        #expect(try await api.bill(bill)["status"] == "checked_out")
        // The largest tip is taken.
        let largest = await api.send(
            "POST", "/v1/bills/\(bill)/pay", json: ["method": "card", "amountMinor": 1033, "tipMinor": .int(PaymentRequest.tipRange.upperBound)])
        #expect(largest.status == 200 && largest.json["payment"]?["chargedMinor"] == .int(1033 + 10_000_000_000_000), "\(largest.text)")
    }

    @Test("replayed under its key: the recorded answer; the same key with another tip is 422 idempotency_key_reused, and no second payment")
    func replay() async throws {
        let api = try await InProcessAPI()
        let bill = try await checkedOut(api)
        let key = [("Idempotency-Key", "tip-key-1")]
        let body: JSON = ["method": "card", "amountMinor": 1033, "tipMinor": 100]
        let first = await api.send("POST", "/v1/bills/\(bill)/pay", json: body, headers: key)
        #expect(first.status == 200, "\(first.text)")
        let again = await api.send("POST", "/v1/bills/\(bill)/pay", json: body, headers: key)
        #expect(again.status == 200 && again.body == first.body)
        let other = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "card", "amountMinor": 1033, "tipMinor": 200], headers: key)
        expectProblem(other, 422, "idempotency_key_reused")
        #expect(api.store.snapshot.payments.count == 1 && api.store.snapshot.payments.first?.tipMinor == 100)
    }

    @Test("the sales report: takings and sales leave tips out; tips by method, with how many payments carried one")
    func report() async throws {
        let api = try await InProcessAPI()
        let manager = DeviceRoleTests.bearer(try await DeviceRoleTests.manager(api))
        for (method, tip) in [("cash", 100), ("card", 50), ("card", 0)] as [(String, Int64)] {
            let bill = try await checkedOut(api)
            let paid = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": .string(method), "amountMinor": 1033, "tipMinor": .int(tip)])
            try #require(paid.status == 200, "\(paid.text)")
        }
        let instant = { (date: Date) in date.formatted(Date.ISO8601FormatStyle()) }
        let period = "from=\(instant(Date().addingTimeInterval(-3600)))&to=\(instant(Date().addingTimeInterval(3600)))"
        let report = await api.get("/v1/reports/sales?\(period)", headers: manager)
        #expect(report.status == 200, "\(report.text)")
        #expect(report.json["payments"]?["amountMinor"] == 3099 && report.json["sales"]?["totalMinor"] == 3099, "\(report.text)")
        #expect(report.json["payments"]?["byMethod"]?["cash"]?["tenderedMinor"] == 1133, "\(report.text)")
        let tips: JSON = ["count": 2, "amountMinor": 150, "card": ["count": 1, "amountMinor": 50], "cash": ["count": 1, "amountMinor": 100]]
        #expect(report.json["tips"] == tips, "\(report.text)")
    }

    @Test("the order summary offers 10, 15 and 20 % of the total as tips, and its pay action sends the tip the cashier enters (left out when none is)")
    func payAction() async throws {
        let api = try await InProcessAPI()
        let bill = try await api.newBill()["id"]!.string
        try await api.add("latte", to: bill)
        // Checkout's answer presents the order summary.
        let checkout = await api.send("POST", "/v1/bills/\(bill)/checkout")
        #expect(checkout.status == 200, "\(checkout.text)")
        let actions = (checkout.json["navigation"]?.arrayValue ?? []).flatMap { $0["screen"]?["actions"]?.arrayValue ?? [] }
        let pay = try #require(actions.first { $0["name"] == "pay" }, "\(checkout.text)")
        #expect(pay["body"]?["tipMinor"] == "{value.tipMinor}" && pay["body"]?["amountMinor"] == "{payload.dueMinor}", "\(pay)")
        // One latte (517): 10, 15 and 20 % are 51.7, 77.55 and 103.4, rounded half to even.
        let summary = try #require((checkout.json["navigation"]?.arrayValue ?? []).first { $0["route"] == "orderSummary" }, "\(checkout.text)")
        let suggested: JSON = [["percent": 10, "tipMinor": 52], ["percent": 15, "tipMinor": 78], ["percent": 20, "tipMinor": 103]]
        #expect(summary["screen"]?["payload"]?["suggestedTips"] == suggested, "\(summary)")
    }
}
