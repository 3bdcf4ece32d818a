import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// The seeds' whole order flow over HTTP against the real binary: launch, add from the menu,
/// change the bill, check out, cancel, check out again, pay, and the next order.
@Suite("Order flow, end to end")
struct OrderFlowTests {
    @Test("launch builds the whole initial UI around one current bill")
    func launch() throws {
        let server = try Server()
        let first = try server.get("/v1/launch")
        #expect(first.status == 200)
        let steps = first.json["navigation"]!.array
        #expect(steps.map { $0["op"]!.string } == ["setRoot", "selectTab", "embed", "embed"])
        #expect(steps.map { $0["route"]!.string } == ["tabBar", "splitContainer", "menu", "bill"])
        #expect(steps[0]["tabs"] == [["route": "splitContainer", "title": "Order"], ["route": "drawer", "title": "Drawer"]])
        #expect(steps[2]["slot"] == "primary")
        #expect(steps[3]["slot"] == "secondary")
        let menuScreen = steps[2]["screen"]!
        #expect(menuScreen["type"] == "menu")
        #expect(menuScreen["renderer"] == "native")
        #expect(menuScreen["payload"]?["items"]?.array.count ?? 0 >= 12)
        #expect(menuScreen["actions"]?.array.first?["path"] == "/v1/bills/{billId}/items")
        let bill = steps[3]["screen"]!["payload"]!
        #expect(bill["status"] == "open")
        #expect(steps[3]["screen"]?["inputs"] == ["billId": bill["id"]!])

        // The same bill on every launch until it is paid: launch creates one only when there is none.
        let again = try server.get("/v1/launch").json["navigation"]!.array
        #expect(again[3]["screen"]?["payload"]?["id"] == bill["id"])
    }

    @Test("the full flow: add, merge, change, remove, checkout, cancel, pay, next bill")
    func fullFlow() throws {
        let server = try Server()
        let billId = try server.newBill()["id"]!.string
        #expect(billId.hasPrefix("bill_"))

        // Adding from the menu updates the bill screen with a `replace`.
        let added = try server.send("POST", "/v1/bills/\(billId)/items", json: ["menuItemId": "latte", "quantity": 2])
        #expect(added.status == 200)
        let navigation = added.json["navigation"]!.array
        #expect(navigation.count == 1)
        #expect(navigation[0]["op"] == "replace")
        #expect(navigation[0]["route"] == "bill")
        #expect(navigation[0]["screen"]?["payload"] == added.json["bill"])

        // The same item again raises that line's quantity.
        var bill = try server.add("latte", 1, to: billId)
        #expect(bill["lines"]!.array.count == 1)
        #expect(bill["lines"]!.array[0]["quantity"] == 3)
        bill = try server.add("croissant", 2, to: billId)
        #expect(bill["lines"]!.array.count == 2)
        let latteLine = bill["lines"]!.array[0]["lineId"]!.string
        let croissantLine = bill["lines"]!.array[1]["lineId"]!.string

        let patched = try server.send("PATCH", "/v1/bills/\(billId)/items/\(latteLine)", json: ["quantity": 1])
        #expect(patched.status == 200)
        #expect(patched.json["bill"]?["lines"]?.array[0]["quantity"] == 1)
        #expect(patched.json["navigation"]?.array.first?["op"] == "replace")

        let removed = try server.send("DELETE", "/v1/bills/\(billId)/items/\(croissantLine)")
        #expect(removed.status == 200)
        #expect(removed.json["bill"]?["lines"]?.array.count == 1)
        bill = try server.add("bagel", 1, to: billId)

        // Checkout freezes the bill and presents the order summary modally in a navigation container.
        let checkout = try server.send("POST", "/v1/bills/\(billId)/checkout")
        #expect(checkout.status == 200)
        #expect(checkout.json["bill"]?["status"] == "checked_out")
        let checkoutSteps = checkout.json["navigation"]!.array
        #expect(checkoutSteps.map { $0["op"]!.string } == ["replace", "present"])
        #expect(checkoutSteps[1]["route"] == "orderSummary")
        #expect(checkoutSteps[1]["presentation"] == ["style": "modal", "inNavigationContainer": true])
        let summary = checkoutSteps[1]["screen"]!["payload"]!
        let total = checkout.json["bill"]!["totalMinor"]!
        #expect(summary["billId"] == .string(billId))
        #expect(summary["totalMinor"] == total)
        #expect(summary["lines"] == checkout.json["bill"]!["lines"])
        #expect(checkoutSteps[1]["screen"]?["actions"]?.array.map { $0["name"]!.string } == ["pay", "payPart", "cancel", "void"])

        // Launch while checked out presents the summary on top of the initial UI.
        let relaunch = try server.get("/v1/launch").json["navigation"]!.array
        #expect(relaunch.map { $0["op"]!.string } == ["setRoot", "selectTab", "embed", "embed", "present"])
        #expect(relaunch[4]["route"] == "orderSummary")

        // Cancel goes back to an open bill and dismisses the summary.
        let cancel = try server.send("POST", "/v1/bills/\(billId)/checkout/cancel")
        #expect(cancel.status == 200)
        #expect(cancel.json["bill"]?["status"] == "open")
        #expect(cancel.json["navigation"]!.array.map { $0["op"]!.string } == ["dismiss", "replace"])
        #expect(cancel.json["navigation"]!.array[0]["route"] == "orderSummary")

        let recheckout = try server.send("POST", "/v1/bills/\(billId)/checkout", json: [:])
        #expect(recheckout.status == 200)

        // Pay in cash with change; the bill is paid and the next one opens.
        let tendered = total.int + 500
        let pay = try server.send(
            "POST", "/v1/bills/\(billId)/pay", json: ["method": "cash", "amountMinor": total, "tenderedMinor": .int(tendered)])
        #expect(pay.status == 200, "\(pay.text)")
        let payment = pay.json["payment"]!
        #expect(payment["billId"] == .string(billId))
        #expect(payment["method"] == "cash")
        #expect(payment["amountMinor"] == total)
        #expect(payment["tenderedMinor"] == .int(tendered))
        #expect(payment["changeMinor"] == 500)
        #expect(payment["id"]?.string.hasPrefix("pay_") == true)
        #expect(payment["createdAt"]?.string.contains("T") == true)
        #expect(pay.json["bill"]?["status"] == "paid")
        let nextBill = pay.json["nextBill"]!
        #expect(nextBill["status"] == "open")
        #expect(nextBill["lines"] == [])
        #expect(nextBill["id"] != .string(billId))
        let paySteps = pay.json["navigation"]!.array
        #expect(paySteps.map { $0["op"]!.string } == ["dismiss", "replace"])
        #expect(paySteps[1]["screen"]?["payload"] == nextBill)

        #expect(try server.bill(billId)["status"] == "paid")
        // The next launch shows the next bill, not a new one.
        let afterPay = try server.get("/v1/launch").json["navigation"]!.array
        #expect(afterPay[3]["screen"]?["payload"]?["id"] == nextBill["id"])
    }

    @Test("card payments take the exact amount and give no change")
    func cardPayment() throws {
        let server = try Server()
        let billId = try server.newBill()["id"]!.string
        try server.add("espresso", 1, to: billId)
        let total = try server.send("POST", "/v1/bills/\(billId)/checkout").json["bill"]!["totalMinor"]!
        let pay = try server.send("POST", "/v1/bills/\(billId)/pay", json: ["method": "card", "amountMinor": total])
        #expect(pay.status == 200, "\(pay.text)")
        #expect(pay.json["payment"]?["tenderedMinor"] == total)
        #expect(pay.json["payment"]?["changeMinor"] == 0)
    }

    @Test("money: per-line tax at 8.75% rounded half to even, totals add up exactly")
    func money() throws {
        let server = try Server()
        let menu = try server.get("/v1/menu/items").json["items"]!.array
        let billId = try server.newBill()["id"]!.string
        for (index, item) in menu.filter({ $0["available"] == true }).prefix(5).enumerated() {
            try server.add(item["id"]!.string, Int64(index + 1), to: billId)
        }
        let bill = try server.bill(billId)
        #expect(bill["currency"] == "USD")
        var subtotal: Int64 = 0
        var tax: Int64 = 0
        for line in bill["lines"]!.array {
            let lineTotal = line["unitPriceMinor"]!.int * line["quantity"]!.int
            #expect(line["lineTotalMinor"] == .int(lineTotal))
            subtotal += lineTotal
            tax += halfEvenTax(lineTotal, basisPoints: 875)
        }
        #expect(bill["subtotalMinor"] == .int(subtotal))
        #expect(bill["taxMinor"] == .int(tax))
        #expect(bill["totalMinor"] == .int(subtotal + tax))
    }

    @Test("the tax rate is configurable")
    func taxRateFlag() throws {
        let server = try Server(arguments: ["--tax-rate-bps", "1000"])
        let billId = try server.newBill()["id"]!.string
        let bill = try server.add("latte", 2, to: billId)
        let subtotal = bill["subtotalMinor"]!.int
        #expect(bill["taxMinor"] == .int(halfEvenTax(subtotal, basisPoints: 1000)))
    }

    @Test("the tips the order summary suggests are configurable, in the shop's order, or none")
    func suggestedTipsFlag() throws {
        func summaryTips(_ arguments: [String]) throws -> JSON? {
            let server = try Server(arguments: arguments)
            let billId = try server.newBill()["id"]!.string
            try server.add("latte", to: billId)  // 517 with the default tax
            let checkout = try server.send("POST", "/v1/bills/\(billId)/checkout")
            #expect(checkout.status == 200, "\(checkout.text)")
            let summary = checkout.json["navigation"]?.arrayValue?.first { $0["route"] == "orderSummary" }
            return summary?["screen"]?["payload"]?["suggestedTips"]
        }
        // 25 % of 517 is 129.25 → 129; 5 % is 25.85 → 26.
        #expect(try summaryTips(["--suggested-tips", "25,5"]) == [["percent": 25, "tipMinor": 129], ["percent": 5, "tipMinor": 26]])
        #expect(try summaryTips(["--suggested-tips", "none"]) == [])
    }

    @Test("menu: ETag, 304 on If-None-Match, category filter")
    func menu() throws {
        let server = try Server()
        let all = try server.get("/v1/menu/items")
        #expect(all.status == 200)
        #expect(all.header("Content-Type") == "application/json")
        let items = all.json["items"]!.array
        #expect(items.count >= 12)
        #expect(Set(items.map { $0["category"]!.string }).count >= 3)
        for item in items {
            #expect(item.objectValue?.keys == ["id", "name", "category", "priceMinor", "currency", "available"])
        }
        let etag = try #require(all.header("ETag"))
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
        #expect(try server.get("/v1/menu/items").header("ETag") == etag)

        let notModified = try server.get("/v1/menu/items", headers: [("If-None-Match", etag)])
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.header("ETag") == etag)
        // RFC 9110 §8.6: a 304's Content-Length, if any, is what the 200 would have sent.
        #expect(notModified.header("Content-Length") == all.header("Content-Length"))
        #expect(try server.get("/v1/menu/items", headers: [("If-None-Match", "\"other\"")]).status == 200)

        let category = items[0]["category"]!.string
        let filtered = try server.get("/v1/menu/items?category=\(category)")
        #expect(filtered.json["items"]!.array.allSatisfy { $0["category"] == .string(category) })
        #expect(filtered.json["items"]!.array.count == items.filter { $0["category"] == .string(category) }.count)
        #expect(filtered.header("ETag") != etag)
        #expect(try server.get("/v1/menu/items?category=nope").json["items"] == [])
    }

    @Test("health, Location and HEAD")
    func healthLocationHead() throws {
        let server = try Server()
        let health = try server.get("/healthz")
        #expect(health.status == 200)
        #expect(health.json["status"] == "ok")
        let created = try server.send("POST", "/v1/bills", json: [:])
        #expect(created.status == 201)
        let id = created.json["bill"]!["id"]!.string
        #expect(created.header("Location") == "/v1/bills/\(id)")
        #expect(created.json["navigation"]!.array.map { $0["op"]!.string } == ["replace"])
        let head = try server.client.request("HEAD", "/v1/bills/\(id)")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
    }
}

/// Half-to-even rounding of amount × bps / 10 000, written independently of the server's code.
func halfEvenTax(_ amount: Int64, basisPoints: Int64) -> Int64 {
    let numerator = amount * basisPoints
    let quotient = numerator / 10_000
    let remainder = numerator % 10_000
    if remainder * 2 > 10_000 { return quotient + 1 }
    if remainder * 2 < 10_000 { return quotient }
    return quotient % 2 == 0 ? quotient : quotient + 1
}
