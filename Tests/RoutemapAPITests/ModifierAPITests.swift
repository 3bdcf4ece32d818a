import Foundation
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// Modifiers through the whole pipeline: a manager defines them (checked, refusals changing
/// nothing), the menu shows them (a new ETag), the menu screen sends an item with groups to its
/// sheet, the sheet's add answers with the line and the steps back to the bill, and a refused add
/// changes nothing.
@Suite("Modifiers through the API")
struct ModifierAPITests {
    static let milk: JSON = [
        "id": "milk", "name": "Milk", "minChoices": 0, "maxChoices": 1,
        "options": [["id": "oat", "name": "Oat", "priceMinor": 50], ["id": "almond", "name": "Almond", "priceMinor": 50]],
    ]
    static let extras: JSON = [
        "id": "extras", "name": "Extras", "minChoices": 0, "maxChoices": 2,
        "options": [["id": "shot", "name": "Extra shot", "priceMinor": 60], ["id": "vanilla", "name": "Vanilla syrup", "priceMinor": 40]],
    ]
    static let size: JSON = [
        "id": "size", "name": "Size", "minChoices": 1, "maxChoices": 1,
        "options": [["id": "small", "name": "Small", "priceMinor": 0], ["id": "large", "name": "Large", "priceMinor": 75]],
    ]

    /// The API with the latte given milk and extras by a manager, and the manager's header.
    static func setUp(_ groups: JSON = [milk, extras]) async throws -> (InProcessAPI, [(String, String)]) {
        let (api, manager) = try await LiveMenuTests.setUp()
        let changed = await api.send("PATCH", "/v1/menu/items/latte", json: ["modifierGroups": groups], headers: manager)
        #expect(changed.status == 200, "\(changed.text)")
        return (api, manager)
    }

    static func stepOps(_ response: TestResponse) -> [String] {
        response.json["navigation"]?.array.map { "\($0["op"]?.stringValue ?? "") \($0["route"]?.stringValue ?? "")" } ?? []
    }

    @Test("a manager gives an item groups: the item, the listing (new ETag) and the menu screen show them; absent keeps them, [] removes them")
    func managed() async throws {
        let (api, manager) = try await LiveMenuTests.setUp()
        let etag = try #require(await api.get("/v1/menu/items").header("ETag"))
        let changed = await api.send("PATCH", "/v1/menu/items/latte", json: ["modifierGroups": [Self.milk, Self.extras]], headers: manager)
        #expect(changed.status == 200, "\(changed.text)")
        #expect(changed.json["item"]?["modifierGroups"] == [Self.milk, Self.extras])
        let listed = await api.get("/v1/menu/items")
        #expect(listed.header("ETag") != etag)
        #expect(listed.json["items"]?.array.first { $0["id"] == "latte" }?["modifierGroups"] == [Self.milk, Self.extras])
        #expect(listed.json["items"]?.array.first { $0["id"] == "espresso" }?["modifierGroups"] == nil, "absent on an item without groups")
        let rows = await LiveMenuTests.launchMenuItems(api)
        #expect(rows.first { $0["id"] == "latte" }?["action"] == "chooseModifiers")
        #expect(rows.first { $0["id"] == "espresso" }?["action"] == nil, "the one-tap add stays the menu's addItem")

        let renamed = await api.send("PATCH", "/v1/menu/items/latte", json: ["name": "Caffè Latte"], headers: manager)
        #expect(renamed.json["item"]?["modifierGroups"] == [Self.milk, Self.extras])
        let created = await api.send(
            "POST", "/v1/menu/items",
            json: ["id": "mocha", "name": "Mocha", "category": "coffee", "priceMinor": 500, "modifierGroups": [Self.size]], headers: manager)
        #expect(created.status == 201 && created.json["item"]?["modifierGroups"] == [Self.size], "\(created.text)")
        let cleared = await api.send("PATCH", "/v1/menu/items/latte", json: ["modifierGroups": []], headers: manager)
        #expect(cleared.status == 200 && cleared.json["item"]?["modifierGroups"] == nil)
        #expect(await LiveMenuTests.launchMenuItems(api).first { $0["id"] == "latte" }?["action"] == nil)
    }

    @Test("bad groups are 400 invalid_field naming the member, a till is 403 manager_only, and neither changes the menu")
    func refusedGroups() async throws {
        let (api, manager) = try await Self.setUp()
        let before = await api.get("/v1/menu/items")
        func option(_ id: JSON, _ price: JSON = 10) -> JSON { ["id": id, "name": "Option", "priceMinor": price] }
        func group(_ id: JSON = "g", min: JSON = 0, max: JSON = 1, options: [JSON] = [option("a"), option("b")], extra: JSONObject = [:]) -> JSON {
            var object: JSONObject = ["id": id, "name": "Group", "minChoices": min, "maxChoices": max, "options": .array(options)]
            for (key, value) in extra { object.append(key, value) }
            return .object(object)
        }
        let cases: [(JSON, String)] = [
            (.string("milk"), "modifierGroups"),
            (.array((0..<11).map { group(.string("g\($0)")) }), "modifierGroups"),
            ([group(options: (0..<21).map { option(.string("o\($0)")) })], "modifierGroups[0].options"),
            ([group(options: [])], "modifierGroups[0].options"),
            ([group(min: 2, max: 1)], "modifierGroups[0].minChoices"),
            ([group(max: 3)], "modifierGroups[0].maxChoices"),
            ([group(max: 0)], "modifierGroups[0].maxChoices"),
            ([group(min: -1)], "modifierGroups[0].minChoices"),
            ([group(min: 0.5)], "modifierGroups[0].minChoices"),
            ([group(), group()], "modifierGroups[1].id"),
            ([group(), group("h")], "modifierGroups[1].options[0].id"),
            ([group("Milk")], "modifierGroups[0].id"),
            ([group(options: [option("a", -1), option("b")])], "modifierGroups[0].options[0].priceMinor"),
            ([group(options: [option("a", 10_000_001), option("b")])], "modifierGroups[0].options[0].priceMinor"),
            ([group(options: [option("a", "1"), option("b")])], "modifierGroups[0].options[0].priceMinor"),
            ([group(extra: ["price": 1])], "modifierGroups[0].price"),
            ([["id": "g", "name": "Group", "minChoices": 0, "maxChoices": 1]], "modifierGroups[0].options"),
            ([group(options: [["id": "a", "name": "", "priceMinor": 0]])], "modifierGroups[0].options[0].name"),
        ]
        for (groups, field) in cases {
            let response = await api.send("PATCH", "/v1/menu/items/latte", json: ["modifierGroups": groups], headers: manager)
            expectProblem(response, 400, "invalid_field")
            #expect(response.json["field"]?.stringValue == field, "\(groups): \(response.text)")
            let created = await api.send(
                "POST", "/v1/menu/items", json: ["id": "tea", "name": "Tea", "category": "coffee", "priceMinor": 300, "modifierGroups": groups],
                headers: manager)
            expectProblem(created, 400, "invalid_field")
        }
        expectProblem(await api.send("PATCH", "/v1/menu/items/latte", json: ["modifierGroups": []]), 403, "manager_only")
        let after = await api.get("/v1/menu/items")
        #expect(after.header("ETag") == before.header("ETag") && after.body == before.body, "a refused change changed the menu")
        // An exact number with a zero fraction is an integer (JSON Schema's rule), nested as on the item itself.
        // Sent as written: an encoded JSON value would print 1.0 as 1.
        let written = #"{"modifierGroups": [{"id": "g", "name": "Group", "minChoices": 1.0, "maxChoices": 2e0, "options": ["#
            + #"{"id": "a", "name": "Option", "priceMinor": 50.0}, {"id": "b", "name": "Option", "priceMinor": 10}]}]}"#
        let exact = await api.send(
            "PATCH", "/v1/menu/items/latte", headers: manager + [("Content-Type", "application/json")], rawBody: Array(written.utf8))
        #expect(exact.status == 200, "\(exact.text)")
        #expect(exact.json["item"]?["modifierGroups"]?.array.first?["minChoices"] == 1, "\(exact.text)")
        #expect(exact.json["item"]?["modifierGroups"]?.array.first?["options"]?.array.first?["priceMinor"] == 50, "\(exact.text)")
    }

    @Test("the menu's chooseModifiers presents the sheet over the menu; its add dismisses it and shows the bill; the steps end where the stack says")
    func sheetWalk() async throws {
        let (api, _) = try await Self.setUp()
        let launch = await api.get("/v1/launch")
        let billId = try #require(launch.json["stack"]?.array.last?["inputs"]?["billId"]?.stringValue)
        let menu = try #require(launch.json["navigation"]?.array.first { $0["route"] == "menu" }?["screen"])
        let choose = try #require(menu["actions"]?.array.first { $0["name"] == "chooseModifiers" })
        #expect(choose["row"] == "items" && choose["path"] == "/v1/apps/pos/navigate")
        #expect(choose["body"]?["to"] == "modifierSheet" && choose["body"]?["input"] == ["billId": "{billId}", "menuItemId": "{item.id}"])

        // The action as a client sends it: its own stack, focus on the menu.
        let from: JSON = [["route": "tabBar", "inputs": [:]], ["route": "splitContainer", "inputs": [:]], ["route": "menu", "inputs": [:]]]
        let walked = await api.navigate(["from": from, "to": "modifierSheet", "input": ["billId": .string(billId), "menuItemId": "latte"]])
        #expect(walked.status == 200, "\(walked.text)")
        #expect(Self.stepOps(walked) == ["present modifierSheet"])
        let step = try #require(walked.json["navigation"]?.array.first)
        #expect(step["presentation"]?["style"] == "sheet")
        let sheet = try #require(step["screen"])
        #expect(sheet["type"] == "modifierSheet" && sheet["inputs"] == ["billId": .string(billId), "menuItemId": "latte"])
        #expect(sheet["payload"]?["menuItemId"] == "latte" && sheet["payload"]?["priceMinor"] == 475)
        #expect(sheet["payload"]?["modifierGroups"] == [Self.milk, Self.extras])
        let add = try #require(sheet["actions"]?.array.first { $0["name"] == "addItem" })
        #expect(add["body"] == ["menuItemId": "{payload.menuItemId}", "quantity": 1, "modifiers": "{value.modifiers}"])
        #expect(walked.json["stack"]?.array.map { $0["route"]?.stringValue ?? "" } == ["tabBar", "splitContainer", "menu", "modifierSheet"])

        // The sheet's add: the line, and the steps from the sheet to the bill.
        let added = await api.send(
            "POST", "/v1/bills/\(billId)/items", json: ["menuItemId": "latte", "quantity": 1, "modifiers": ["shot", "oat"]],
            headers: [("Idempotency-Key", UUID().uuidString)])
        #expect(added.status == 200, "\(added.text)")
        #expect(Self.stepOps(added) == ["dismiss modifierSheet", "replace bill"])
        let line = try #require(added.json["bill"]?["lines"]?.array.first)
        #expect(line["unitPriceMinor"] == 585 && line["lineTotalMinor"] == 585)
        #expect(line["modifiers"] == [["optionId": "oat", "name": "Oat", "priceMinor": 50], ["optionId": "shot", "name": "Extra shot", "priceMinor": 60]])
        // Applied to the walk's stack, the steps end on the bill beside the menu (the dismiss
        // removes the sheet; the replace shows bill(Y) and moves the focus to it).
        let back = await api.navigate(["from": walked.json["stack"]!, "to": "bill", "input": ["billId": .string(billId)]])
        #expect(Self.stepOps(back) == Self.stepOps(added))
        #expect(back.json["stack"]?.array.map { $0["route"]?.stringValue ?? "" } == ["tabBar", "splitContainer", "bill"])

        // The one tap (no `modifiers`) answers as ever: a line of its own for a plain latte.
        let plain = await api.send("POST", "/v1/bills/\(billId)/items", json: ["menuItemId": "latte", "quantity": 1])
        #expect(Self.stepOps(plain) == ["replace bill"])
        #expect(plain.json["bill"]?["lines"]?.array.count == 2 && plain.json["bill"]?["lines"]?.array.last?["modifiers"] == nil)
        // A sheet add with nothing chosen is still the sheet's: it dismisses it, and merges into the plain line.
        let none = await api.send("POST", "/v1/bills/\(billId)/items", json: ["menuItemId": "latte", "quantity": 1, "modifiers": []])
        #expect(Self.stepOps(none) == ["dismiss modifierSheet", "replace bill"])
        #expect(none.json["bill"]?["lines"]?.array.map { $0["quantity"] } == [1, 2])
        // A client that cannot dismiss gets 422 unsupported_client for a sheet add, and the bill stays.
        let noDismiss = [("Navigation-Capabilities", "setRoot,selectTab,embed,present,replace")]
        expectProblem(
            await api.send("POST", "/v1/bills/\(billId)/items", json: ["menuItemId": "latte", "quantity": 1, "modifiers": ["oat"]], headers: noDismiss),
            422, "unsupported_client")
        #expect(try await api.bill(billId)["version"] == none.json["bill"]?["version"])
        // The sheet of an item not on the menu: 422 unknown_menu_item.
        expectProblem(
            await api.navigate(["from": from, "to": "modifierSheet", "input": ["billId": .string(billId), "menuItemId": "no-such-item"]]), 422,
            "unknown_menu_item")
    }

    @Test("refused adds: unknown_modifier, modifier_choice_invalid naming the group, a repeated or malformed option list; none changes the bill")
    func refusedAdds() async throws {
        let (api, manager) = try await Self.setUp()
        let created = await api.send(
            "POST", "/v1/menu/items",
            json: ["id": "flat-white", "name": "Flat White", "category": "coffee", "priceMinor": 425, "modifierGroups": [Self.size, Self.milk]],
            headers: manager)
        #expect(created.status == 201, "\(created.text)")
        let bill = try await api.newBill()
        let billId = try #require(bill["id"]?.stringValue)
        _ = try await api.add("espresso", to: billId)
        let before = try await api.bill(billId)
        func add(_ item: String, _ modifiers: JSON?) async -> TestResponse {
            var body: JSONObject = ["menuItemId": .string(item), "quantity": 1]
            if let modifiers { body.append("modifiers", modifiers) }
            return await api.send("POST", "/v1/bills/\(billId)/items", json: .object(body), headers: [("Idempotency-Key", UUID().uuidString)])
        }
        let unknown = await add("latte", ["large"])
        expectProblem(unknown, 422, "unknown_modifier")
        #expect(unknown.json["optionId"] == "large" && unknown.json["menuItemId"] == "latte")
        expectProblem(await add("espresso", ["oat"]), 422, "unknown_modifier")
        let required = await add("flat-white", nil)
        expectProblem(required, 422, "modifier_choice_invalid")
        #expect(required.json["groupId"] == "size" && required.json["minChoices"] == 1 && required.json["chosen"] == 0)
        #expect(required.json["detail"]?.stringValue?.hasPrefix("Size takes 1 choice") == true, "\(required.text)")
        let tooMany = await add("latte", ["oat", "almond"])
        expectProblem(tooMany, 422, "modifier_choice_invalid")
        #expect(tooMany.json["groupId"] == "milk" && tooMany.json["chosen"] == 2)
        for (modifiers, field) in [(["oat", "oat"] as JSON, "modifiers"), ("oat", "modifiers"), ([1], "modifiers"), ([""], "modifiers"),
                                   (.array(Array(repeating: "oat", count: 201)), "modifiers")] {
            let response = await add("latte", modifiers)
            expectProblem(response, 400, "invalid_field")
            #expect(response.json["field"]?.stringValue == field, "\(modifiers): \(response.text)")
        }
        expectProblem(await add("no-such-item", ["oat"]), 422, "unknown_menu_item")
        #expect(try await api.bill(billId) == before, "a refused add changed the bill")
        // The required group answered: added.
        let large = await add("flat-white", ["large", "oat"])
        #expect(large.status == 200 && large.json["bill"]?["lines"]?.array.last?["unitPriceMinor"] == 550, "\(large.text)")
    }

    @Test("lines show their modifiers in the bill, the order summary, the receipt; later menu changes leave them as added")
    func shownEverywhere() async throws {
        let (api, manager) = try await Self.setUp()
        let billId = try #require(try await api.newBill()["id"]?.stringValue)
        _ = await api.send("POST", "/v1/bills/\(billId)/items", json: ["menuItemId": "latte", "quantity": 2, "modifiers": ["almond"]])
        // The manager reprices almond milk; the bill keeps 50.
        let repriced: JSON = ["id": "milk", "name": "Milk", "minChoices": 0, "maxChoices": 1, "options": [["id": "almond", "name": "Almond", "priceMinor": 90]]]
        _ = await api.send("PATCH", "/v1/menu/items/latte", json: ["modifierGroups": [repriced]], headers: manager)
        let expected: JSON = [["optionId": "almond", "name": "Almond", "priceMinor": 50]]
        #expect(try await api.bill(billId)["lines"]?.array.first?["modifiers"] == expected)
        let checkout = await api.send("POST", "/v1/bills/\(billId)/checkout")
        let summary = try #require(checkout.json["navigation"]?.array.last?["screen"]?["payload"])
        #expect(summary["lines"]?.array.first?["modifiers"] == expected)
        let rows = summary["components"]?.array.first?["children"]?.array ?? []
        #expect(rows.first?["detail"] == "Almond +0.50 USD · 5.25 USD each", "\(rows)")
        let total = try #require(checkout.json["bill"]?["totalMinor"]?.int64Value)
        #expect(total == 1_050 + 92)
        let paid = await api.send("POST", "/v1/bills/\(billId)/pay", json: ["method": "card", "amountMinor": .int(total)])
        #expect(paid.status == 200 && paid.json["bill"]?["lines"]?.array.first?["modifiers"] == expected, "\(paid.text)")
        let receipt = await api.get("/v1/bills/\(billId)/receipt")
        #expect(receipt.json["lines"]?.array.first?["modifiers"] == expected, "\(receipt.text)")
    }
}
