import Foundation
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Testing

@testable import RoutemapAPI

/// A manager's refunds through the API's pipeline: the answers' JSON, every refusal's status
/// and code, what a refusal leaves, and replays under a key.
@Suite("Refunds through the pipeline")
struct RefundAPITests {
    static func bearer(_ token: String) -> [(String, String)] { DeviceRoleTests.bearer(token) }

    /// The till's bill holding one latte (475 + 42 = 517), paid by `method`; its id and payment's id.
    private func paidBill(_ api: InProcessAPI, _ method: String = "card") async throws -> (bill: String, payment: String) {
        let bill = try await api.newBill()["id"]!.string
        try await api.add("latte", to: bill)
        let total = try #require(await api.send("POST", "/v1/bills/\(bill)/checkout").json["bill"]?["totalMinor"])
        let paid = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": .string(method), "amountMinor": total])
        try #require(paid.status == 200, "\(paid.text)")
        return (bill, paid.json["payment"]!["id"]!.string)
    }

    @Test("a manager refunds part of a till's paid bill, then the rest: 200 with the refund and the sums; the list, oldest first; the bill unchanged")
    func refundAndList() async throws {
        let api = try await InProcessAPI()
        let manager = Self.bearer(try await DeviceRoleTests.manager(api))
        let managerId = try #require(api.store.snapshot.devices.first { $0.device.role == .manager }?.device.id)
        let (bill, payment) = try await paidBill(api, "cash")
        let before = try await api.bill(bill)
        let empty = await api.get("/v1/bills/\(bill)/refunds", headers: manager)
        #expect(empty.status == 200 && empty.json == ["refunds": [], "refundedMinor": 0, "refundableMinor": 517], "\(empty.text)")

        let first = await api.send("POST", "/v1/bills/\(bill)/refund", json: ["amountMinor": 200, "reason": "Cold latte"], headers: manager)
        #expect(first.status == 200, "\(first.text)")
        let refund = try #require(first.json["refund"])
        let refundId = refund["refundId"]!.string
        #expect(refundId.hasPrefix("ref_") && refundId.count == 26)
        let createdAt = refund["createdAt"]!.string
        #expect(Timestamp.parse(createdAt) != nil && createdAt.hasSuffix("Z"))
        #expect(
            first.json == [
                "refund": [
                    "refundId": .string(refundId), "billId": .string(bill), "paymentId": .string(payment), "method": "cash",
                    "amountMinor": 200, "reason": "Cold latte", "deviceId": .string(managerId), "createdAt": .string(createdAt),
                ],
                "refundedMinor": 200, "refundableMinor": 317,
            ], "\(first.text)")
        #expect(first.header("Content-Type") == "application/json")

        let rest = await api.send("POST", "/v1/bills/\(bill)/refund", json: ["amountMinor": 317, "reason": "Overcharged"], headers: manager)
        #expect(rest.status == 200 && rest.json["refundedMinor"] == 517 && rest.json["refundableMinor"] == 0, "\(rest.text)")
        let listed = await api.get("/v1/bills/\(bill)/refunds", headers: manager)
        #expect(listed.status == 200, "\(listed.text)")
        #expect(listed.json["refunds"] == .array([refund, rest.json["refund"]!]))
        #expect(listed.json["refundedMinor"] == 517 && listed.json["refundableMinor"] == 0)
        let head = await api.send("HEAD", "/v1/bills/\(bill)/refunds", headers: manager)
        #expect(head.status == 200 && head.body.isEmpty)
        // The bill is as it was paid: same status, totals, version.
        #expect(try await api.bill(bill) == before)

        let over = await api.send("POST", "/v1/bills/\(bill)/refund", json: ["amountMinor": 1, "reason": "again"], headers: manager)
        expectProblem(over, 422, "refund_exceeds_payment")
        #expect(over.json["refundableMinor"] == 0, "\(over.text)")
    }

    @Test("refusals: a till 403, an unknown bill 404, an unpaid bill 409 with its status, bad bodies 400; none changes anything")
    func refusals() async throws {
        let api = try await InProcessAPI()
        let manager = Self.bearer(try await DeviceRoleTests.manager(api))
        let (bill, _) = try await paidBill(api)
        let path = "/v1/bills/\(bill)/refund"
        let good: JSON = ["amountMinor": 100, "reason": "Returned"]
        expectProblem(await api.send("POST", path, json: good), 403, "manager_only")
        expectProblem(await api.get("/v1/bills/\(bill)/refunds"), 403, "manager_only")
        expectProblem(await api.send("POST", "/v1/bills/bill_missing/refund", json: good, headers: manager), 404, "not_found")
        expectProblem(await api.get("/v1/bills/bill_missing/refunds", headers: manager), 404, "not_found")

        let open = try await api.newBill()["id"]!.string
        try await api.add("latte", to: open)
        let unpaid = await api.send("POST", "/v1/bills/\(open)/refund", json: good, headers: manager)
        expectProblem(unpaid, 409, "bill_not_paid")
        #expect(unpaid.json["detail"]?.stringValue?.contains("open") == true, "\(unpaid.text)")
        #expect(await api.get("/v1/bills/\(open)/refunds", headers: manager).json == ["refunds": [], "refundedMinor": 0, "refundableMinor": 0])

        let badBodies: [(JSON, String)] = [
            (["amountMinor": 0, "reason": "x"], "amountMinor"),
            (["amountMinor": -1, "reason": "x"], "amountMinor"),
            (["amountMinor": 1.5, "reason": "x"], "amountMinor"),
            (["amountMinor": "1", "reason": "x"], "amountMinor"),
            (["reason": "x"], "amountMinor"),
            (["amountMinor": 1], "reason"),
            (["amountMinor": 1, "reason": ""], "reason"),
            (["amountMinor": 1, "reason": "   "], "reason"),
            (["amountMinor": 1, "reason": .string(String(repeating: "x", count: 201))], "reason"),
            (["amountMinor": 1, "reason": "bell\u{7}"], "reason"),
        ]
        for (body, field) in badBodies {
            let refused = await api.send("POST", path, json: body, headers: manager)
            expectProblem(refused, 400, "invalid_field")
            #expect(refused.json["field"]?.stringValue == field, "\(body.encoded()): \(refused.text)")
        }
        // No other member: a method of its own is refused.
        let withMethod = await api.send("POST", path, json: ["amountMinor": 1, "reason": "x", "method": "cash"], headers: manager)
        expectProblem(withMethod, 400, "invalid_field")
        #expect(withMethod.json["field"] == "method", "\(withMethod.text)")
        #expect(api.store.snapshot.refunds.isEmpty)
        #expect(await api.get("/v1/bills/\(bill)/refunds", headers: manager).json["refundableMinor"] == 517)
    }

    @Test("under an Idempotency-Key: a refund is made once and replayed; a refused one (over, unpaid) is recorded and replayed too")
    func keyed() async throws {
        let api = try await InProcessAPI()
        let manager = Self.bearer(try await DeviceRoleTests.manager(api))
        let (bill, _) = try await paidBill(api)
        let path = "/v1/bills/\(bill)/refund"
        let made = await api.send("POST", path, json: ["amountMinor": 500, "reason": "Returned"], headers: manager + [("Idempotency-Key", "r-1")])
        #expect(made.status == 200, "\(made.text)")
        let again = await api.send("POST", path, json: ["amountMinor": 500, "reason": "Returned"], headers: manager + [("Idempotency-Key", "r-1")])
        #expect(again.status == 200 && again.json == made.json && again.header("Idempotent-Replayed") == "true", "\(again.text)")
        #expect(api.store.snapshot.refunds.count == 1)
        expectProblem(
            await api.send("POST", path, json: ["amountMinor": 5, "reason": "Returned"], headers: manager + [("Idempotency-Key", "r-1")]), 422,
            "idempotency_key_reused")

        let over = await api.send("POST", path, json: ["amountMinor": 18, "reason": "more"], headers: manager + [("Idempotency-Key", "r-2")])
        expectProblem(over, 422, "refund_exceeds_payment")
        #expect(over.json["refundableMinor"] == 17)
        // What is left goes; the retry still gets the recorded refusal.
        #expect(await api.send("POST", path, json: ["amountMinor": 17, "reason": "rest"], headers: manager).status == 200)
        let overAgain = await api.send("POST", path, json: ["amountMinor": 18, "reason": "more"], headers: manager + [("Idempotency-Key", "r-2")])
        expectProblem(overAgain, 422, "refund_exceeds_payment")
        #expect(overAgain.json["refundableMinor"] == 17 && overAgain.header("Idempotent-Replayed") == "true", "\(overAgain.text)")
        #expect(api.store.snapshot.refunds.map(\.amountMinor) == [500, 17])

        // A bill not paid: 409, recorded and replayed.
        let open = try await api.newBill()["id"]!.string
        let unpaid = await api.send(
            "POST", "/v1/bills/\(open)/refund", json: ["amountMinor": 1, "reason": "x"], headers: manager + [("Idempotency-Key", "r-3")])
        expectProblem(unpaid, 409, "bill_not_paid")
        let unpaidAgain = await api.send(
            "POST", "/v1/bills/\(open)/refund", json: ["amountMinor": 1, "reason": "x"], headers: manager + [("Idempotency-Key", "r-3")])
        expectProblem(unpaidAgain, 409, "bill_not_paid")
        #expect(unpaidAgain.header("Idempotent-Replayed") == "true", "\(unpaidAgain.text)")
        #expect(api.store.snapshot.refunds.count == 2)
    }

    @Test("where reads are round trips, listing a bill's refunds reads inside the store's reading, never on the serving thread")
    func listReadsInsideReading() async throws {
        let api = try await InProcessAPI(readsAreImmediate: false)
        let manager = Self.bearer(try await DeviceRoleTests.manager(api))
        let (bill, _) = try await paidBill(api)
        #expect(await api.send("POST", "/v1/bills/\(bill)/refund", json: ["amountMinor": 17, "reason": "x"], headers: manager).status == 200)
        let outside = api.store.readsOutsideReading
        let listed = await api.get("/v1/bills/\(bill)/refunds", headers: manager)
        #expect(listed.status == 200 && listed.json["refundableMinor"] == 500, "\(listed.text)")
        expectProblem(await api.get("/v1/bills/bill_missing/refunds", headers: manager), 404, "not_found")
        #expect(api.store.readsOutsideReading == outside, "a store read held the thread serving the request")
    }

    @Test("the sales report counts the period's refunds by method; the drawer's cash is the cash taken less cash refunds")
    func salesReport() async throws {
        let api = try await InProcessAPI()
        let manager = Self.bearer(try await DeviceRoleTests.manager(api))
        let (card, _) = try await paidBill(api, "card")
        let (cash, _) = try await paidBill(api, "cash")
        for (bill, amount) in [(card, 100), (card, 17), (cash, 200)] {
            let made = await api.send("POST", "/v1/bills/\(bill)/refund", json: ["amountMinor": .int(Int64(amount)), "reason": "x"], headers: manager)
            #expect(made.status == 200, "\(made.text)")
        }
        let day = (from: Timestamp.format(Date().addingTimeInterval(-43_200)), to: Timestamp.format(Date().addingTimeInterval(43_200)))
        let report = await api.get("/v1/reports/sales?from=\(day.from)&to=\(day.to)", headers: manager)
        #expect(report.status == 200, "\(report.text)")
        #expect(
            report.json["refunds"]
                == ["count": 3, "amountMinor": 317, "card": ["count": 2, "amountMinor": 117], "cash": ["count": 1, "amountMinor": 200]],
            "\(report.text)")
        // The takings stay as paid: the drawer holds the cash payments (517) less the cash refunds (200).
        #expect(report.json["payments"]?["byMethod"]?["cash"]?["amountMinor"] == 517, "\(report.text)")
        #expect(report.json["payments"]?["byMethod"]?["card"]?["amountMinor"] == 517, "\(report.text)")
        let past = await api.get("/v1/reports/sales?from=2000-01-01T00:00:00Z&to=2000-12-31T00:00:00Z", headers: manager)
        #expect(
            past.json["refunds"] == ["count": 0, "amountMinor": 0, "card": ["count": 0, "amountMinor": 0], "cash": ["count": 0, "amountMinor": 0]],
            "\(past.text)")
    }
}
