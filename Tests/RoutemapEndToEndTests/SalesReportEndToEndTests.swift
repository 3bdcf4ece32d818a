import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// The end-of-day report over HTTP against the real binary: a till rings up, pays by card and
/// in cash, voids a bill and leaves one checked out; the manager's report has every number; a
/// till is refused, and so is a period the report cannot be made of.
@Suite("Sales report, end to end")
struct SalesReportEndToEndTests {
    static let managerCode = "e2e-manager-code"

    /// `date` as the shop at UTC+1 writes it, to the second: `2026-11-25T08:00:00+01:00`.
    static func shopTime(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: 3600)
        return formatter.string(from: date)
    }

    /// The query of a report of [`from`, `to`), its `+` sent as `%2B`.
    static func query(_ from: String, _ to: String) -> String {
        let encode = { (text: String) in text.replacingOccurrences(of: "+", with: "%2B") }
        return "/v1/reports/sales?from=\(encode(from))&to=\(encode(to))"
    }

    @Test("a till's day: card and cash payments, the items sold, a void, a checked-out bill; refusals for tills and bad periods")
    func day() throws {
        let process = try RoutemapProcess(arguments: ["--manager-enrollment-code", Self.managerCode])
        defer { process.cleanUp() }
        let till = try process.client()
        let manager = try process.client(authorized: false)
        let enrolled = try manager.json("POST", "/v1/devices", ["name": "Owner", "enrollmentCode": .string(Self.managerCode), "role": "manager"])
        try #require(enrolled.status == 201, "\(enrolled.text)")
        manager.defaultHeaders = [("Authorization", "Bearer \(enrolled.json["token"]!.string)")]
        // The period: whole seconds around the day rung up, so the echo is exact.
        let from = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 1).rounded(.down))

        func bill(_ items: [(String, Int64)], checkout: Bool) throws -> (id: String, total: Int64) {
            let created = try till.request("POST", "/v1/bills")
            let id = try #require(created.json["bill"]?["id"]?.stringValue, "\(created.text)")
            for (item, quantity) in items {
                let added = try till.json("POST", "/v1/bills/\(id)/items", ["menuItemId": .string(item), "quantity": .int(quantity)])
                try #require(added.status == 200, "\(added.text)")
            }
            guard checkout else { return (id, 0) }
            let frozen = try till.request("POST", "/v1/bills/\(id)/checkout")
            try #require(frozen.status == 200, "\(frozen.text)")
            return (id, try #require(frozen.json["bill"]?["totalMinor"]?.int64Value))
        }
        // 2 lattes by card: 950 + 83 (8.75 %, per line, half to even) = 1033, and a tip of 50.
        let card = try bill([("latte", 2)], checkout: true)
        #expect(card.total == 1033)
        let paidByCard = try till.json(
            "POST", "/v1/bills/\(card.id)/pay", ["method": "card", "amountMinor": .int(card.total), "tipMinor": 50],
            headers: [("Idempotency-Key", "pay-card")])
        #expect(paidByCard.status == 200, "\(paidByCard.text)")
        #expect(paidByCard.json["payment"]?["tenderedMinor"] == 1083 && paidByCard.json["payment"]?["tipMinor"] == 50, "\(paidByCard.text)")
        // A croissant and an espresso in cash, 10.00 handed over with a tip of 1.00: 650 + 31 + 26 = 707, change 193.
        let cash = try bill([("croissant", 1), ("espresso", 1)], checkout: true)
        #expect(cash.total == 707)
        let paidInCash = try till.json(
            "POST", "/v1/bills/\(cash.id)/pay", ["method": "cash", "amountMinor": .int(cash.total), "tenderedMinor": 1000, "tipMinor": 100],
            headers: [("Idempotency-Key", "pay-cash")])
        #expect(paidInCash.json["payment"]?["changeMinor"] == .int(193), "\(paidInCash.text)")
        #expect(paidInCash.json["payment"]?["chargedMinor"] == .int(807), "\(paidInCash.text)")
        // A latte voided (475 + 42 = 517), and a croissant checked out, not paid (350 + 31 = 381).
        let voided = try bill([("latte", 1)], checkout: false)
        let void = try till.json("POST", "/v1/bills/\(voided.id)/void", ["reason": "customer left"])
        #expect(void.status == 200, "\(void.text)")
        let owed = try bill([("croissant", 1)], checkout: true)
        #expect(owed.total == 381)
        let to = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 2).rounded(.up))

        let answer = try manager.request("GET", Self.query(Self.shopTime(from), Self.shopTime(to)))
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.header("Content-Type") == "application/json" && answer.header("Cache-Control") == "no-store")
        let report = answer.json
        let utc = { (date: Date) in date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }
        #expect(report["from"] == .string(utc(from)) && report["to"] == .string(utc(to)), "\(answer.text)")
        #expect(report["from"]?.stringValue?.hasSuffix(".000Z") == true)
        #expect(report["currency"] == "USD")
        #expect(
            report["payments"]
                == [
                    "count": 2, "amountMinor": 1740,
                    "byMethod": [
                        "card": ["count": 1, "amountMinor": 1033],
                        "cash": ["count": 1, "amountMinor": 707, "tenderedMinor": 1000, "changeMinor": 193],
                    ],
                ], "\(answer.text)")
        #expect(
            report["sales"]
                == [
                    "bills": 2, "subtotalMinor": 1600, "discounts": ["count": 0, "amountMinor": 0], "discountedSubtotalMinor": 1600,
                    "taxMinor": 140, "totalMinor": 1740,
                    "items": [
                        ["menuItemId": "latte", "name": "Latte", "quantity": 2, "amountMinor": 950],
                        ["menuItemId": "croissant", "name": "Butter Croissant", "quantity": 1, "amountMinor": 350],
                        ["menuItemId": "espresso", "name": "Espresso", "quantity": 1, "amountMinor": 300],
                    ],
                ], "\(answer.text)")
        #expect(report["voids"] == ["count": 1, "totalMinor": 517], "\(answer.text)")
        // Tips apart: not in the payments' amounts nor the sales.
        #expect(
            report["tips"] == ["count": 2, "amountMinor": 150, "card": ["count": 1, "amountMinor": 50], "cash": ["count": 1, "amountMinor": 100]],
            "\(answer.text)")
        // Open: the empty bill the first payment opened, which the second took up again.
        #expect(report["unsettledNow"] == ["open": 1, "checkedOut": 1, "checkedOutTotalMinor": 381], "\(answer.text)")

        // The day before: no sales, the same unsettled bills.
        let dayBefore = try manager.request("GET", Self.query(Self.shopTime(from.addingTimeInterval(-86_400)), Self.shopTime(from)))
        #expect(dayBefore.json["payments"]?["count"] == .int(0) && dayBefore.json["sales"]?["items"] == .array([]), "\(dayBefore.text)")
        #expect(dayBefore.json["unsettledNow"] == report["unsettledNow"])

        // A till is refused, whatever the period.
        expectProblem(try till.request("GET", Self.query(Self.shopTime(from), Self.shopTime(to))), 403, "manager_only")
        expectProblem(try till.request("GET", "/v1/reports/sales"), 403, "manager_only")
        // Bad periods: 400 invalid_field naming the parameter.
        let fromText = Self.shopTime(from), toText = Self.shopTime(to)
        let refusals: [(query: String, field: String)] = [
            ("/v1/reports/sales?to=\(toText.replacingOccurrences(of: "+", with: "%2B"))", "from"),
            ("/v1/reports/sales?from=\(fromText.replacingOccurrences(of: "+", with: "%2B"))", "to"),
            (Self.query("yesterday", toText), "from"),
            (Self.query(fromText, "2026-11-25"), "to"),
            (Self.query("2026-11-25T00:00:00", toText), "from"),  // no offset
            (Self.query("2026-02-30T00:00:00Z", toText), "from"),
            (Self.query("2026-11-25T00:00:00.0001Z", toText), "from"),  // finer than a millisecond
            ("/v1/reports/sales?from=\(fromText)&to=\(toText)", "from"),  // '+' unencoded: a space
            (Self.query(toText, fromText), "to"),  // to before from
            (Self.query(fromText, fromText), "to"),  // empty
            (Self.query("2025-01-01T00:00:00Z", "2026-01-02T00:00:00.001Z"), "to"),  // 366 days and 1 ms
        ]
        for refusal in refusals {
            let refused = try manager.request("GET", refusal.query)
            expectProblem(refused, 400, "invalid_field")
            #expect(refused.json["field"] == .string(refusal.field), "\(refusal.query): \(refused.text)")
        }
        // 366 days exactly is a period (a leap year's).
        #expect(try manager.request("GET", Self.query("2024-01-01T00:00:00Z", "2025-01-01T00:00:00Z")).status == 200)
        // Nothing changed: the same report again.
        #expect(try manager.request("GET", Self.query(Self.shopTime(from), Self.shopTime(to))).json == report)
    }
}
