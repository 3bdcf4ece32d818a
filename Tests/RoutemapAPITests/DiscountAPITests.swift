import Foundation
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Testing

@testable import RoutemapAPI

/// Discounts through the API's pipeline: `PUT` and `DELETE /v1/bills/{billId}/discount`, the
/// bill's JSON everywhere it is shown, the bill screen's actions and the order summary, every
/// refusal as problem+json with nothing changed, and the replay of a key.
@Suite("Discounts through the pipeline")
struct DiscountAPITests {
    private static func bearer(_ token: String) -> [(String, String)] { DeviceRoleTests.bearer(token) }

    /// The enrolled till's open bill of a latte and a croissant (825 + 73 = 898): its id.
    private func table(_ api: InProcessAPI) async throws -> String {
        let bill = try await api.newBill()["id"]!.string
        try await api.add("latte", to: bill)
        try await api.add("croissant", to: bill)
        return bill
    }

    @Test("PUT gives 10 %: the bill shows discount and discountMinor, tax on the 743 left, total 808; the bill screen is replaced; GET agrees")
    func percent() async throws {
        let api = try await InProcessAPI(tillDiscountLimitBasisPoints: 1_000)
        let bill = try await table(api)
        let answer = await api.send("PUT", "/v1/bills/\(bill)/discount", json: ["percentBps": 1000, "reason": "Regular"])
        #expect(answer.status == 200, "\(answer.text)")
        let shown = try #require(answer.json["bill"])
        #expect(shown["discount"] == ["percentBps": 1000, "reason": "Regular"], "\(answer.text)")
        #expect(shown["subtotalMinor"] == 825 && shown["discountMinor"] == 82 && shown["taxMinor"] == 65 && shown["totalMinor"] == 808)
        #expect(answer.json["navigation"]?.array.first?["op"] == "replace", "\(answer.text)")
        #expect(try await api.bill(bill) == shown)
        // A line added: the percentage follows it (1125: 112; 1013 × 8.75 % → 89).
        let added = try await api.add("espresso", to: bill)
        #expect(added["discountMinor"] == 112 && added["totalMinor"] == 1102, "\(added)")
    }

    @Test("an amount discount shows amountMinor; DELETE takes it off (and removing none changes nothing); a bill without one has discountMinor 0 and no discount")
    func amountAndRemove() async throws {
        let api = try await InProcessAPI()
        let manager = Self.bearer(try await DeviceRoleTests.manager(api))
        let bill = try await table(api)
        let undiscounted = try await api.bill(bill)
        #expect(undiscounted["discountMinor"] == 0 && undiscounted["discount"] == nil)
        let given = await api.send("PUT", "/v1/bills/\(bill)/discount", json: ["amountMinor": 500, "reason": "Wrong order"], headers: manager)
        #expect(given.status == 200, "\(given.text)")
        #expect(given.json["bill"]?["discount"] == ["amountMinor": 500, "reason": "Wrong order"] && given.json["bill"]?["totalMinor"] == 353)
        // Another device's bill, changed by a manager: no steps.
        #expect(given.json["navigation"] == [], "\(given.text)")
        let removed = await api.send("DELETE", "/v1/bills/\(bill)/discount")
        #expect(removed.status == 200, "\(removed.text)")
        #expect(removed.json["bill"]?["discount"] == nil && removed.json["bill"]?["totalMinor"] == 898 && removed.json["bill"]?["discountMinor"] == 0)
        let version = removed.json["bill"]?["version"]
        let again = await api.send("DELETE", "/v1/bills/\(bill)/discount")
        #expect(again.status == 200 && again.json["bill"]?["version"] == version, "\(again.text)")
    }

    @Test("a till past its limit: 403 discount_needs_manager with limitBps and shareBps, nothing changed; replayed under its key")
    func tillLimit() async throws {
        let api = try await InProcessAPI(tillDiscountLimitBasisPoints: 1_000)
        let bill = try await table(api)
        let before = try await api.bill(bill)
        let refused = await api.send("PUT", "/v1/bills/\(bill)/discount", json: ["percentBps": 1001, "reason": "Friend"], headers: [("Idempotency-Key", "k-friend")])
        expectProblem(refused, 403, "discount_needs_manager")
        #expect(refused.json["limitBps"] == 1000 && refused.json["shareBps"] == 1001, "\(refused.text)")
        let amount = await api.send("PUT", "/v1/bills/\(bill)/discount", json: ["amountMinor": 83, "reason": "Friend"])
        expectProblem(amount, 403, "discount_needs_manager")
        #expect(amount.json["shareBps"] == 1007, "\(amount.text)")
        #expect(try await api.bill(bill) == before)
        let replayed = await api.send("PUT", "/v1/bills/\(bill)/discount", json: ["percentBps": 1001, "reason": "Friend"], headers: [("Idempotency-Key", "k-friend")])
        expectProblem(replayed, 403, "discount_needs_manager")
        #expect(replayed.header("Idempotent-Replayed") == "true")
        // By default (0) a till gives none.
        let strict = try await InProcessAPI()
        let other = try await table(strict)
        expectProblem(await strict.send("PUT", "/v1/bills/\(other)/discount", json: ["percentBps": 1, "reason": "Tiny"]), 403, "discount_needs_manager")
    }

    @Test("bad input is 400 invalid_field naming the member, nothing changed; another till 404; a checked-out bill 409 bill_not_open")
    func refusals() async throws {
        let api = try await InProcessAPI(tillDiscountLimitBasisPoints: 10_000)
        let bill = try await table(api)
        let before = try await api.bill(bill)
        let bad: [(JSON, String)] = [
            (["percentBps": 1000], "reason"),
            (["reason": "No kind"], "percentBps"),
            (["percentBps": 1000, "amountMinor": 5, "reason": "Both"], "percentBps"),
            (["percentBps": 0, "reason": "Zero"], "percentBps"),
            (["percentBps": 10001, "reason": "Too much"], "percentBps"),
            (["percentBps": "10", "reason": "Text"], "percentBps"),
            (["amountMinor": 0, "reason": "Zero"], "amountMinor"),
            (["amountMinor": 10_000_000_000_001, "reason": "Huge"], "amountMinor"),
            (["percentBps": 1000, "reason": "   "], "reason"),
            (["percentBps": 1000, "reason": ""], "reason"),
            (["percentBps": 1000, "reason": "x", "note": "y"], "note"),
        ]
        for (body, field) in bad {
            let refused = await api.send("PUT", "/v1/bills/\(bill)/discount", json: body)
            expectProblem(refused, 400, "invalid_field")
            #expect(refused.json["field"] == .string(field), "\(body): \(refused.text)")
        }
        #expect(try await api.bill(bill) == before)
        // Another till.
        let stranger = try #require(
            await api.send("POST", "/v1/devices", json: ["name": "Other till", "enrollmentCode": .string(InProcessAPI.enrollmentCode)], authorized: false)
                .json["token"]?.stringValue)
        expectProblem(await api.send("PUT", "/v1/bills/\(bill)/discount", json: ["percentBps": 100, "reason": "Mine"], headers: Self.bearer(stranger)), 404, "not_found")
        expectProblem(await api.send("DELETE", "/v1/bills/\(bill)/discount", headers: Self.bearer(stranger)), 404, "not_found")
        // Checked out: 409, for the till and for a manager.
        #expect(await api.send("POST", "/v1/bills/\(bill)/checkout").status == 200)
        expectProblem(await api.send("PUT", "/v1/bills/\(bill)/discount", json: ["percentBps": 100, "reason": "Late"]), 409, "bill_not_open")
        let manager = Self.bearer(try await DeviceRoleTests.manager(api))
        expectProblem(await api.send("DELETE", "/v1/bills/\(bill)/discount", headers: manager), 409, "bill_not_open")
    }

    @Test("the bill screen offers setDiscount with {value.…} inputs, removeDiscount only with a discount; the order summary and the receipt show it; the report counts it")
    func screensReceiptAndReport() async throws {
        let api = try await InProcessAPI(tillDiscountLimitBasisPoints: 1_000)
        let bill = try await table(api)
        let plain = await api.send("POST", "/v1/bills/\(bill)/items", json: ["menuItemId": "espresso", "quantity": 1])
        let plainActions = plain.json["navigation"]?.array.first?["screen"]?["actions"]?.array.compactMap { $0["name"]?.stringValue } ?? []
        #expect(plainActions.contains("setDiscount") && !plainActions.contains("removeDiscount"), "\(plain.text)")
        _ = await api.send("DELETE", "/v1/bills/\(bill)/items/\(plain.json["bill"]!["lines"]!.array[2]["lineId"]!.string)")
        let given = await api.send("PUT", "/v1/bills/\(bill)/discount", json: ["percentBps": 1000, "reason": "Regular"])
        let screen = try #require(given.json["navigation"]?.array.first?["screen"])
        let actions = screen["actions"]?.array ?? []
        let set = try #require(actions.first { $0["name"] == "setDiscount" })
        #expect(set["method"] == "PUT" && set["path"] == "/v1/bills/{billId}/discount")
        #expect(set["body"] == ["percentBps": "{value.percentBps}", "amountMinor": "{value.amountMinor}", "reason": "{value.reason}"])
        #expect(actions.contains { $0["name"] == "removeDiscount" && $0["method"] == "DELETE" })
        #expect(screen["payload"]?["discountMinor"] == 82 && screen["payload"]?["discount"]?["reason"] == "Regular", "\(given.text)")

        let checkout = await api.send("POST", "/v1/bills/\(bill)/checkout")
        let summary = try #require((checkout.json["navigation"]?.arrayValue ?? []).first { $0["route"] == "orderSummary" }?["screen"], "\(checkout.text)")
        #expect(summary["payload"]?["discountMinor"] == 82 && summary["payload"]?["totalMinor"] == 808, "\(checkout.text)")
        #expect(summary["payload"]?["discount"] == ["percentBps": 1000, "reason": "Regular"])
        // Tips are on top of the discounted total.
        #expect(summary["payload"]?["suggestedTips"]?.array.first?["tipMinor"] == 81, "\(checkout.text)")

        let paid = await api.send("POST", "/v1/bills/\(bill)/pay", json: ["method": "card", "amountMinor": 808, "tipMinor": 50])
        #expect(paid.status == 200, "\(paid.text)")
        let receipt = await api.get("/v1/bills/\(bill)/receipt")
        #expect(receipt.json["subtotalMinor"] == 825 && receipt.json["discountMinor"] == 82 && receipt.json["totalMinor"] == 808, "\(receipt.text)")
        #expect(receipt.json["discount"] == ["percentBps": 1000, "reason": "Regular"] && receipt.json["chargedMinor"] == 858)

        let manager = Self.bearer(try await DeviceRoleTests.manager(api))
        let from = Date().addingTimeInterval(-3_600).formatted(.iso8601), to = Date().addingTimeInterval(3_600).formatted(.iso8601)
        let report = await api.get("/v1/reports/sales?from=\(from)&to=\(to)", headers: manager)
        #expect(report.status == 200, "\(report.text)")
        let sales = try #require(report.json["sales"])
        #expect(sales["subtotalMinor"] == 825 && sales["discounts"] == ["count": 1, "amountMinor": 82] && sales["discountedSubtotalMinor"] == 743)
        #expect(sales["totalMinor"] == 808 && report.json["payments"]?["amountMinor"] == 808, "\(report.text)")
    }
}
