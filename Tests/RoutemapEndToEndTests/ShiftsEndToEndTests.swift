import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// Cash drawer shifts over HTTP against the real binary (SQLite, or PostgreSQL when
/// `ROUTEMAP_TEST_DATABASE_URL` is set): a whole shift cashed up, every refusal (changing
/// nothing), keyed retries, and who reads which shift.
@Suite("Cash drawer shifts, end to end")
struct ShiftsEndToEndTests {
    private static func key(_ value: String) -> [(String, String)] { ManagerBillsEndToEndTests.key(value) }

    /// The shift a change answered, without the drawer screen's steps (`navigation`) beside it:
    /// what reading the shift answers.
    private static func shift(_ response: TestResponse) -> JSON {
        var object = response.json.objectValue ?? [:]
        object["navigation"] = nil
        return .object(object)
    }

    /// A bill of `device` holding `quantity` lattes, paid by `method` with `tip` (cash: `tendered` handed over); its total.
    private static func paid(_ device: TestHTTPClient, lattes quantity: Int64, _ method: String, tip: Int64 = 0, tendered: Int64? = nil) throws
        -> (id: String, total: Int64)
    {
        let bill = try #require(device.request("POST", "/v1/bills").json["bill"]?["id"]?.stringValue)
        #expect(try device.json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "latte", "quantity": .int(quantity)]).status == 200)
        let total = try #require(device.request("POST", "/v1/bills/\(bill)/checkout").json["bill"]?["totalMinor"]?.int64Value)
        var body: JSONObject = ["method": .string(method), "amountMinor": .int(total), "tipMinor": .int(tip)]
        if let tendered { body.append("tenderedMinor", .int(tendered)) }
        let answer = try device.json("POST", "/v1/bills/\(bill)/pay", .object(body), headers: key("pay-\(bill)"))
        try #require(answer.status == 200, "\(answer.text)")
        return (bill, total)
    }

    @Test("a manager's drawer: open, cash with a tip, card, a cash refund, a pay-in and a pay-out, then a count short by 25")
    func wholeShift() throws {
        let shop = try ManagerBillsEndToEndTests.Shop()
        defer { shop.process.cleanUp() }
        let drawer = shop.manager
        // Paying needs no shift; the open shift counts only what is taken after it opens.
        _ = try Self.paid(drawer, lattes: 1, "cash")
        let opened = try drawer.json("POST", "/v1/shifts", ["openingFloatMinor": 10_000], headers: Self.key("open-1"))
        #expect(opened.status == 201, "\(opened.text)")
        let shiftId = try #require(opened.json["shiftId"]?.stringValue)
        #expect(opened.header("Location") == "/v1/shifts/\(shiftId)")
        #expect(opened.json["status"] == "open" && opened.json["expectedCashMinor"] == 10_000 && opened.json["varianceMinor"] == nil)
        let replayed = try drawer.json("POST", "/v1/shifts", ["openingFloatMinor": 10_000], headers: Self.key("open-1"))
        #expect(replayed.status == 201 && replayed.json == opened.json && replayed.header("Idempotent-Replayed") == "true")
        let again = try drawer.json("POST", "/v1/shifts", ["openingFloatMinor": 0])
        expectProblem(again, 409, "shift_already_open")
        #expect(again.json["shiftId"]?.stringValue == shiftId)

        let (cashBill, cashTotal) = try Self.paid(drawer, lattes: 1, "cash", tip: 100, tendered: 2000)
        let (_, cardTotal) = try Self.paid(drawer, lattes: 2, "card", tip: 50)
        _ = try Self.paid(shop.lost, lattes: 3, "cash")
        let refund = try drawer.json("POST", "/v1/bills/\(cashBill)/refund", ["amountMinor": 75, "reason": "Cold latte"])
        #expect(refund.status == 200, "\(refund.text)")
        let payIn = try drawer.json(
            "POST", "/v1/shifts/current/movements", ["kind": "pay_in", "amountMinor": 500, "reason": "Change from the bank"], headers: Self.key("in-1"))
        #expect(payIn.status == 200, "\(payIn.text)")
        #expect(payIn.json["movement"]?["kind"] == "pay_in" && payIn.json["movement"]?["shiftId"]?.stringValue == shiftId)
        let expectedBeforePayOut = 10_000 + cashTotal + 100 - 75 + 500
        #expect(payIn.json["shift"]?["expectedCashMinor"]?.int64Value == expectedBeforePayOut, "\(payIn.text)")
        let tooMuch = try drawer.json("POST", "/v1/shifts/current/movements", ["kind": "pay_out", "amountMinor": .int(expectedBeforePayOut + 1), "reason": "Safe"])
        expectProblem(tooMuch, 409, "insufficient_cash")
        #expect(tooMuch.json["expectedCashMinor"]?.int64Value == expectedBeforePayOut)
        let payOut = try drawer.json("POST", "/v1/shifts/current/movements", ["kind": "pay_out", "amountMinor": 300, "reason": "Milk delivery"])
        #expect(payOut.status == 200, "\(payOut.text)")

        let expected = expectedBeforePayOut - 300
        let current = try drawer.request("GET", "/v1/shifts/current")
        #expect(current.status == 200 && current.header("Cache-Control") == "no-store", "\(current.text)")
        #expect(current.json["cashTakenMinor"]?.int64Value == cashTotal + 100 && current.json["cashPayments"] == 1)
        #expect(current.json["cardTakenMinor"]?.int64Value == cardTotal + 50 && current.json["cardPayments"] == 1)
        #expect(current.json["cashRefundedMinor"] == 75 && current.json["payInsMinor"] == 500 && current.json["payOutsMinor"] == 300)
        #expect(current.json["paymentsCount"] == 2 && current.json["expectedCashMinor"]?.int64Value == expected)

        let closed = try drawer.json("POST", "/v1/shifts/current/close", ["countedCashMinor": .int(expected - 25)], headers: Self.key("close-1"))
        #expect(closed.status == 200, "\(closed.text)")
        #expect(closed.json["status"] == "closed" && closed.json["varianceMinor"] == -25, "\(closed.text)")
        #expect(closed.json["expectedCashMinor"]?.int64Value == expected && closed.json["countedCashMinor"]?.int64Value == expected - 25)
        #expect(closed.json["deviceId"] == opened.json["deviceId"] && closed.json["closedAt"]?.stringValue != nil)
        let closedAgain = try drawer.json("POST", "/v1/shifts/current/close", ["countedCashMinor": .int(expected - 25)], headers: Self.key("close-1"))
        #expect(closedAgain.json == closed.json && closedAgain.header("Idempotent-Replayed") == "true")
        expectProblem(try drawer.request("GET", "/v1/shifts/current"), 404, "no_open_shift")

        // The closed shift's report does not change with later sales.
        _ = try Self.paid(drawer, lattes: 1, "cash")
        let read = try drawer.request("GET", "/v1/shifts/\(shiftId)")
        #expect(read.status == 200 && read.json == Self.shift(closed), "\(read.text)")
        // A till reads its own shifts only: the manager's is missing to it.
        expectProblem(try shop.lost.request("GET", "/v1/shifts/\(shiftId)"), 404, "not_found")
        let tillShift = try shop.lost.json("POST", "/v1/shifts", ["openingFloatMinor": 0])
        #expect(tillShift.status == 201, "\(tillShift.text)")
        let tillShiftId = try #require(tillShift.json["shiftId"]?.stringValue)
        #expect(try drawer.request("GET", "/v1/shifts/\(tillShiftId)").status == 200)
        #expect(try shop.lost.request("GET", "/v1/shifts/\(tillShiftId)").json == Self.shift(tillShift))

        // A manager lists them, newest first, a page at a time; a till may not.
        let page = try drawer.request("GET", "/v1/shifts?limit=1")
        #expect(page.status == 200, "\(page.text)")
        #expect(page.json["shifts"]?.arrayValue?.compactMap { $0["shiftId"]?.stringValue } == [tillShiftId])
        let next = try #require(page.json["nextCursor"]?.stringValue)
        let rest = try drawer.request("GET", "/v1/shifts?limit=1&cursor=\(next)")
        let listed = try #require(rest.json["shifts"]?.arrayValue?.first)
        #expect(listed["shiftId"]?.stringValue == shiftId && listed["varianceMinor"] == -25 && rest.json["nextCursor"] == nil, "\(rest.text)")
        let mine = try drawer.request("GET", "/v1/shifts?device=\(shop.lostId)")
        #expect(mine.json["shifts"]?.arrayValue?.count == 1 && mine.json["shifts"]?.arrayValue?.first?["status"] == "open", "\(mine.text)")
        expectProblem(try shop.lost.request("GET", "/v1/shifts"), 403, "manager_only")
        expectProblem(try drawer.request("GET", "/v1/shifts?cursor=shift_nope"), 400, "invalid_field")
        expectProblem(try drawer.request("GET", "/v1/shifts?limit=0"), 400, "invalid_field")
    }

    @Test("refusals change nothing: bad input (400 invalid_field), no open shift (409, 404 to read), and the shift as it was")
    func refusals() throws {
        let shop = try ManagerBillsEndToEndTests.Shop()
        defer { shop.process.cleanUp() }
        let till = shop.lost
        expectProblem(try till.request("GET", "/v1/shifts/current"), 404, "no_open_shift")
        expectProblem(try till.json("POST", "/v1/shifts/current/close", ["countedCashMinor": 0]), 409, "no_open_shift")
        expectProblem(try till.json("POST", "/v1/shifts/current/movements", ["kind": "pay_in", "amountMinor": 1, "reason": "x"]), 409, "no_open_shift")
        expectProblem(try till.request("GET", "/v1/shifts/shift_missing"), 404, "not_found")
        let badOpens: [JSON] = [["openingFloatMinor": -1], [:], ["openingFloatMinor": "10"], ["openingFloatMinor": 1.5], ["openingFloatMinor": 1, "float": 1]]
        for body in badOpens { expectProblem(try till.json("POST", "/v1/shifts", body), 400, "invalid_field") }
        expectProblem(try till.request("GET", "/v1/shifts/current"), 404, "no_open_shift")

        let opened = try till.json("POST", "/v1/shifts", ["openingFloatMinor": 2000])
        #expect(opened.status == 201, "\(opened.text)")
        let badMovements: [JSON] = [
            ["kind": "tip", "amountMinor": 1, "reason": "x"], ["kind": "pay_in", "amountMinor": 0, "reason": "x"],
            ["kind": "pay_in", "amountMinor": -5, "reason": "x"], ["kind": "pay_in", "amountMinor": 1, "reason": ""],
            ["kind": "pay_in", "amountMinor": 1, "reason": "   "], ["kind": "pay_in", "amountMinor": 1, "reason": .string(String(repeating: "r", count: 201))],
            ["kind": "pay_in", "amountMinor": 1], ["amountMinor": 1, "reason": "x"],
        ]
        for body in badMovements { expectProblem(try till.json("POST", "/v1/shifts/current/movements", body), 400, "invalid_field") }
        for body: JSON in [["countedCashMinor": -1], [:], ["countedCashMinor": nil]] {
            expectProblem(try till.json("POST", "/v1/shifts/current/close", body), 400, "invalid_field")
        }
        expectProblem(try till.json("POST", "/v1/shifts/current/movements", ["kind": "pay_out", "amountMinor": 2001, "reason": "Safe"]), 409, "insufficient_cash")
        let current = try till.request("GET", "/v1/shifts/current")
        #expect(current.json == Self.shift(opened), "nothing was recorded: \(current.text)")
    }
}
