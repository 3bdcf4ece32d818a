import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// The navigation engine over HTTP: the registry, walks, deep links and client capabilities,
/// against the real binary (docs/navigation.md is the contract). The "why" tests each cover one
/// question a client author asked of the contract (its "Questions client authors asked").
@Suite("Navigation, end to end")
struct NavigationTests {
    /// A stack entry as answers carry it.
    private func entry(_ route: String, _ inputs: [String: String] = [:], sub: Bool = false) -> JSON {
        var object: JSONObject = ["route": .string(route), "inputs": .object(JSONObject(inputs.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))]
        if sub { object.append("sub", true) }
        return .object(object)
    }

    private func launchStack(_ billId: String) -> JSON { [entry("tabBar"), entry("splitContainer"), entry("bill", ["billId": billId])] }
    private func summaryStack(_ billId: String) -> JSON { .array(launchStack(billId).array + [entry("orderSummary", ["billId": billId])]) }
    private let menuStack: JSON = ["tabBar", "splitContainer", "menu"]

    private func ops(_ response: TestResponse) -> [String] {
        response.json["navigation"]!.array.map { "\($0["op"]!.string) \($0["sub"] == true ? "sub:" : "")\($0["route"]!.string)" }
    }

    private func step(_ response: TestResponse, _ index: Int) -> JSON { response.json["navigation"]!.array[index] }

    /// The device's current bill, from launch's bill screen; `checkedOut` with a latte on it and
    /// checked out, so that its order summary can be shown (its guard).
    private func currentBill(_ server: Server, checkedOut: Bool = false) throws -> String {
        let launch = try server.get("/v1/launch")
        try #require(launch.status == 200, "\(launch.text)")
        let billId = launch.json["stack"]!.array[2]["inputs"]!["billId"]!.string
        if checkedOut { try checkOut(server, billId) }
        return billId
    }

    /// Puts a latte on the bill and checks it out.
    private func checkOut(_ server: Server, _ billId: String) throws {
        try server.add("latte", to: billId)
        try #require(try server.send("POST", "/v1/bills/\(billId)/checkout").status == 200)
    }

    /// `GET /v1/resolve` for `url` from `from` (a JSON stack), both percent-encoded.
    private func resolve(_ server: Server, _ url: String, from: JSON? = nil) throws -> TestResponse {
        var path = "/v1/resolve?url=\(url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        if let from { path += "&from=\(from.encodedString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)" }
        return try server.get(path)
    }

    @Test("GET /v1/routes is the registry as a tree; GET /v1/routes/{id} one route; unknown ids are 404")
    func routes() throws {
        let server = try Server()
        let tree = try server.get("/v1/routes")
        #expect(tree.status == 200)
        let root = tree.json["root"]!
        #expect(root["id"] == "tabBar")
        #expect(root["presentation"] == ["kind": "root"])
        let split = root["children"]!.array[0]
        #expect(split["slots"] == ["primary", "secondary"])
        #expect(split["children"]!.array.map { $0["id"]!.string } == ["menu", "bill"])
        let summary = split["children"]!.array[1]["children"]!.array[0]
        #expect(summary["id"] == "orderSummary")
        #expect(summary["renderer"] == "declarative")
        #expect(summary["presentation"] == ["kind": "present", "style": "modal", "inNavigationContainer": true])

        let bill = try server.get("/v1/routes/bill")
        #expect(bill.status == 200)
        #expect(bill.json["parent"] == "splitContainer")
        #expect(bill.json["children"] == ["orderSummary", "billList"])
        #expect(bill.json["requires"] == ["billId"])
        #expect(bill.json["callerSupplied"] == ["billId"])
        #expect(bill.json["deepLinks"] == ["routemap://bills/{billId}"])
        expectProblem(try server.get("/v1/routes/nowhere"), 404, "not_found")
    }

    @Test("launch: its steps, applied by the rules, end at its stack: the focus on the bill, with the bill's id")
    func launchAnswersWithStack() throws {
        let server = try Server()
        let launch = try server.get("/v1/launch")
        #expect(ops(launch) == ["setRoot tabBar", "selectTab splitContainer", "embed menu", "embed bill"])
        // Initial contents: the first tab, then the slots in the order the container lists them.
        #expect(launch.json["navigation"]!.array.map { $0["slot"] } == [nil, nil, "primary", "secondary"])
        let current = step(launch, 3)["screen"]!["inputs"]!["billId"]!.string
        #expect(launch.json["stack"] == launchStack(current))

        try server.add("latte", to: current)
        #expect(try server.send("POST", "/v1/bills/\(current)/checkout").status == 200)
        let checkedOut = try server.get("/v1/launch")
        #expect(ops(checkedOut) == ["setRoot tabBar", "selectTab splitContainer", "embed menu", "embed bill", "present orderSummary"])
        #expect(checkedOut.json["stack"] == summaryStack(current))
        #expect(checkedOut.json["navigation"]!.array.allSatisfy { $0["animated"] == false })
    }

    @Test("the worked example: the bill in focus provides the summary's bill; back to the menu dismisses and moves the focus")
    func workedExample() throws {
        let server = try Server()
        let billId = try currentBill(server)
        try server.add("latte", 2, to: billId)
        #expect(try server.send("POST", "/v1/bills/\(billId)/checkout").status == 200)

        let summary = try server.navigate(["from": launchStack(billId), "to": "orderSummary"])
        #expect(summary.status == 200, "\(summary.text)")
        #expect(ops(summary) == ["present orderSummary"])
        #expect(summary.json["stack"] == summaryStack(billId))
        let present = step(summary, 0)
        #expect(present["presentation"] == ["style": "modal", "inNavigationContainer": true])
        let screen = present["screen"]!
        #expect(screen["renderer"] == "declarative")
        #expect(screen["payload"]!["billId"] == .string(billId))
        let components = screen["payload"]!["components"]!.array
        #expect(components.contains { $0["type"] == "button" && $0["action"] == "pay" })
        #expect(components.first?["children"]?.array.first?["title"] == "2 × Latte")

        let back = try server.navigate(["from": summaryStack(billId), "to": "menu"])
        #expect(ops(back) == ["dismiss orderSummary", "replace menu"])
        #expect(back.json["stack"] == [entry("tabBar"), entry("splitContainer"), entry("menu")])
    }

    @Test("why 1: a link to another bill from its summary leaves the bill screen showing the linked bill")
    func linkToAnotherBillFromSummary() throws {
        let server = try Server()
        let y = try currentBill(server)
        try server.add("latte", to: y)
        #expect(try server.send("POST", "/v1/bills/\(y)/checkout").status == 200)
        let x = try server.newBill()["id"]!.string

        let resolved = try resolve(server, "routemap://bills/\(x)", from: summaryStack(y))
        #expect(resolved.status == 200, "\(resolved.text)")
        #expect(ops(resolved) == ["dismiss orderSummary", "replace bill"])
        #expect(step(resolved, 1)["screen"]!["payload"]!["id"] == .string(x))
        #expect(resolved.json["stack"] == launchStack(x))
    }

    @Test("why 1: a link to another bill's summary from a bill screen shows that bill under its summary")
    func linkToAnotherSummaryFromBill() throws {
        let server = try Server()
        let y = try currentBill(server)
        let x = try server.newBill()["id"]!.string
        try checkOut(server, x)
        let resolved = try resolve(server, "routemap://bills/\(x)/summary", from: launchStack(y))
        #expect(resolved.status == 200, "\(resolved.text)")
        #expect(ops(resolved) == ["replace bill", "present orderSummary"])
        #expect(step(resolved, 0)["screen"]!["payload"]!["id"] == .string(x))
        #expect(step(resolved, 1)["screen"]!["payload"]!["billId"] == .string(x))
        #expect(resolved.json["stack"] == summaryStack(x))
        // The same from a stack in the older string form (no inputs known): the bill is replaced too.
        let strings = try resolve(server, "routemap://bills/\(x)/summary", from: ["tabBar", "splitContainer", "bill"])
        #expect(ops(strings) == ["replace bill", "present orderSummary"])
        #expect(strings.json["stack"] == summaryStack(x))
        // And in the comma-separated form.
        let comma = try server.get("/v1/resolve?url=routemap%3A%2F%2Fbills%2F\(x)%2Fsummary&from=tabBar,splitContainer,bill")
        #expect(comma.json["stack"] == summaryStack(x))
    }

    @Test("why 2: every focus move has a step: to the menu or the bill on display is a replace, the summary's bill is listed first")
    func focusMovesHaveSteps() throws {
        let server = try Server()
        let billId = try currentBill(server, checkedOut: true)
        let toMenu = try server.navigate(["from": ["tabBar", "splitContainer"], "to": "menu"])
        #expect(ops(toMenu) == ["replace menu"])
        #expect(toMenu.json["stack"] == [entry("tabBar"), entry("splitContainer"), entry("menu")])

        let toBill = try server.navigate(["from": menuStack, "to": "bill"])
        #expect(ops(toBill) == ["replace bill"])
        #expect(toBill.json["stack"] == launchStack(billId))

        let toSummary = try server.navigate(["from": ["tabBar", "splitContainer"], "to": "orderSummary"])
        #expect(ops(toSummary) == ["replace bill", "present orderSummary"])
        #expect(toSummary.json["stack"] == summaryStack(billId))
    }

    @Test("why 3: a sub presentation says so in its step and in its stack entry; parent closes it")
    func subIsVisible() throws {
        let server = try Server()
        let billId = try currentBill(server, checkedOut: true)
        let sub = try server.navigate(["from": menuStack, "mode": "sub", "to": "bill"])
        #expect(sub.status == 200, "\(sub.text)")
        #expect(ops(sub) == ["present sub:bill"])
        #expect(step(sub, 0)["presentation"] == ["style": "modal", "inNavigationContainer": true])
        #expect(sub.json["stack"] == [entry("tabBar"), entry("splitContainer"), entry("menu"), entry("bill", ["billId": billId], sub: true)])
        // A plain present carries no sub.
        let plain = try server.navigate(["from": launchStack(billId), "to": "orderSummary"])
        #expect(step(plain, 0)["sub"] == nil)

        let close = try server.navigate(["from": sub.json["stack"]!, "mode": "parent"])
        #expect(ops(close) == ["dismiss bill"])
        #expect(close.json["stack"] == [entry("tabBar"), entry("splitContainer"), entry("menu")])
        // The string form of a sub entry is still read.
        let strings = try server.navigate(["from": ["tabBar", "splitContainer", "menu", "sub:bill"], "mode": "parent"])
        #expect(ops(strings) == ["dismiss bill"])
    }

    @Test("why 4: every screen's inputs are its route's requires and provides, as GET /v1/routes lists them")
    func registryAndScreensAgree() throws {
        let server = try Server()
        let billId = try currentBill(server)
        try server.add("latte", to: billId)
        #expect(try server.send("POST", "/v1/bills/\(billId)/checkout").status == 200)
        let launch = try server.get("/v1/launch")
        #expect(ops(launch).last == "present orderSummary")
        for step in launch.json["navigation"]!.array {
            let route = try server.get("/v1/routes/\(step["route"]!.string)").json
            let declared = Set((route["requires"]!.array + route["provides"]!.array).map(\.string))
            let shown = Set(step["screen"]!["inputs"]?.objectValue?.keys ?? [])
            #expect(shown == declared, "\(step["route"]!.string)")
        }
        #expect(try server.get("/v1/routes/orderSummary").json["provides"] == ["billId"])
    }

    @Test("why 5: refresh names only the top; a covered screen is not addressed until what covers it is dismissed")
    func refreshAndCoveredScreens() throws {
        let server = try Server()
        let billId = try currentBill(server, checkedOut: true)
        let refresh = try server.navigate(["from": launchStack(billId), "to": "bill"])
        #expect(ops(refresh) == ["refresh bill"])
        #expect(refresh.json["stack"] == launchStack(billId))
        let top = try server.navigate(["from": summaryStack(billId), "to": "orderSummary"])
        #expect(ops(top) == ["refresh orderSummary"])
        // The bill under the summary is covered: another bill dismisses the summary first.
        let other = try server.newBill()["id"]!.string
        let replaced = try server.navigate(["from": summaryStack(billId), "to": "bill", "input": ["billId": .string(other)]])
        #expect(ops(replaced) == ["dismiss orderSummary", "replace bill"])
        #expect(replaced.json["stack"] == launchStack(other))
    }

    @Test("modes: parent removes the top screen; from the root's screen it has no parent; from as one route id")
    func modes() throws {
        let server = try Server()
        let billId = try currentBill(server, checkedOut: true)
        let parent = try server.navigate(["from": summaryStack(billId), "mode": "parent"])
        #expect(ops(parent) == ["dismiss orderSummary"])
        #expect(parent.json["stack"] == launchStack(billId))
        expectProblem(try server.navigate(["from": launchStack(billId), "mode": "parent"]), 422, "no_parent")

        let fromRouteID = try server.navigate(["from": "menu", "to": "orderSummary"])
        #expect(ops(fromRouteID) == ["replace bill", "present orderSummary"])
    }

    @Test("inputs: only declared ones pass; a named bill replaces the bill on display; an unknown bill is 404")
    func inputs() throws {
        let server = try Server()
        let current = try currentBill(server)
        let billId = try server.newBill()["id"]!.string
        try checkOut(server, billId)
        let summary = try server.navigate([
            "from": launchStack(current), "to": "orderSummary", "input": ["billId": .string(billId), "extra": "x"],
        ])
        #expect(summary.status == 200)
        #expect(ops(summary) == ["replace bill", "present orderSummary"])
        #expect(step(summary, 0)["screen"]!["payload"]!["id"] == .string(billId))
        #expect(step(summary, 1)["screen"]!["payload"]!["billId"] == .string(billId))
        expectProblem(try server.navigate(["from": menuStack, "to": "orderSummary", "input": ["billId": "bill_nope"]]), 404, "not_found")
        // A stack whose bill screen shows an unknown bill: its summary is 404 too.
        expectProblem(try server.navigate(["from": launchStack("bill_gone"), "to": "orderSummary"]), 404, "not_found")
    }

    @Test("any Unicode within the schema's limits is accepted or answered as documented")
    func unicode() throws {
        let server = try Server()
        // A route id of 100 non-ASCII characters is no route: 404, not a 400 for its 200 bytes.
        expectProblem(try server.navigate(["from": .string(String(repeating: "é", count: 100)), "to": "menu"]), 404, "not_found")
        expectProblem(try server.navigate(["from": .string(String(repeating: "é", count: 101)), "to": "menu"]), 400, "invalid_field")
        // An input of 200 non-ASCII characters passes (dropped: no route on the way requires it).
        let long = try server.navigate(["from": menuStack, "to": "menu", "input": ["note": .string(String(repeating: "ü", count: 200))]])
        #expect(long.status == 200, "\(long.text)")
        expectProblem(
            try server.navigate(["from": menuStack, "to": "menu", "input": ["note": .string(String(repeating: "ü", count: 201))]]), 400,
            "invalid_field")
        expectProblem(try server.navigate(["from": menuStack, "to": "menu", "input": ["nöte": "x"]]), 400, "invalid_field")
    }

    @Test("bad navigations: each gets its problem")
    func errors() throws {
        let server = try Server()
        expectProblem(try server.navigate(["from": ["splitContainer"], "to": "menu"]), 422, "invalid_stack")
        expectProblem(try server.navigate(["from": ["tabBar", "menu"], "to": "menu"]), 422, "invalid_stack")
        expectProblem(try server.navigate(["from": ["tabBar", "nowhere"], "to": "menu"]), 404, "not_found")
        expectProblem(try server.navigate(["from": menuStack, "to": "nowhere"]), 404, "not_found")
        expectProblem(try server.navigate(["from": ["tabBar"], "mode": "parent"]), 422, "no_parent")
        expectProblem(try server.navigate(["from": menuStack]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": menuStack, "mode": "sideways", "to": "menu"]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": menuStack, "mode": "sub", "to": "tabBar"]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": 3, "to": "menu"]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": [], "to": "menu"]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": menuStack, "to": "menu", "input": ["billId": 5]]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": menuStack, "to": "menu", "price": 1]), 400, "invalid_field")
        expectProblem(try server.navigate(["to": "menu"]), 400, "invalid_field")
        // Entry objects are read strictly too.
        expectProblem(try server.navigate(["from": [["route": "tabBar", "extra": 1]], "to": "menu"]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": [["inputs": [:]]], "to": "menu"]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": [["route": "tabBar", "sub": "yes"]], "to": "menu"]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": [["route": "tabBar", "inputs": ["a": 1]]], "to": "menu"]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": [["route": "tabBar", "sub": true]], "to": "menu"]), 422, "invalid_stack")
    }

    @Test("deep links resolve to a walk with the link's inputs; unknown links are 404")
    func resolve() throws {
        let server = try Server()
        let billId = try server.newBill()["id"]!.string
        let url = "routemap://bills/\(billId)/summary"
        // The summary's guard: an open bill has none to show (409 with the guard's code, nothing changed).
        let refused = try resolve(server, url)
        expectProblem(refused, 409, "bill_not_checked_out")
        #expect(refused.json["guard"] == "billCheckedOut" && refused.json["route"] == "orderSummary")
        #expect(try server.get("/v1/bills/\(billId)").json["status"] == "open")
        try checkOut(server, billId)
        let resolved = try resolve(server, url)
        #expect(resolved.status == 200, "\(resolved.text)")
        #expect(ops(resolved) == ["replace bill", "present orderSummary"])
        #expect(step(resolved, 1)["screen"]!["payload"]!["billId"] == .string(billId))
        #expect(resolved.json["stack"] == summaryStack(billId))

        let fromSummary = try server.get("/v1/resolve?url=routemap%3A%2F%2Fmenu&from=tabBar,splitContainer,bill,orderSummary")
        #expect(ops(fromSummary) == ["dismiss orderSummary", "replace menu"])
        #expect(fromSummary.json["stack"] == [entry("tabBar"), entry("splitContainer"), entry("menu")])

        expectProblem(try server.get("/v1/resolve?url=routemap%3A%2F%2Fnowhere"), 404, "not_found")
        expectProblem(try server.get("/v1/resolve?url=routemap%3A%2F%2Fbills%2Fbill_nope"), 404, "not_found")
        expectProblem(try server.get("/v1/resolve"), 400, "invalid_field")
        expectProblem(try server.get("/v1/resolve?url=routemap%3A%2F%2Fmenu&from=bill"), 422, "invalid_stack")
        expectProblem(try server.get("/v1/resolve?url=routemap%3A%2F%2Fmenu&from=%5Bnope"), 400, "invalid_field")
        expectProblem(try server.get("/v1/resolve?url=routemap%3A%2F%2Fmenu&from=%5B%5D"), 400, "invalid_field")
    }

    @Test("capabilities: refresh degrades to replace, with the same stack; a malformed App-Version is 400")
    func capabilities() throws {
        let server = try Server()
        let headers = [("Navigation-Capabilities", "setRoot,selectTab,embed,present,dismiss,push,pop,replace")]
        let refresh = try server.navigate(["from": menuStack, "to": "menu"], headers: headers)
        #expect(ops(refresh) == ["replace menu"])
        #expect(refresh.json["stack"] == [entry("tabBar"), entry("splitContainer"), entry("menu")])
        expectProblem(try server.get("/v1/launch", headers: [("App-Version", "two")]), 400, "invalid_field")
    }

    @Test("a client that could not follow the answer gets 422 unsupported_client and nothing changes")
    func unsupportedClientChangesNothing() throws {
        let server = try Server()
        let billId = try server.newBill()["id"]!.string
        try server.add("latte", to: billId)
        let noPresent = [("Navigation-Capabilities", "setRoot,selectTab,embed,dismiss,replace")]
        expectProblem(try server.send("POST", "/v1/bills/\(billId)/checkout", headers: noPresent), 422, "unsupported_client")
        #expect(try server.bill(billId)["status"] == "open")

        // The tab bar has no declarative rendering: a client without it cannot be launched.
        expectProblem(try server.get("/v1/launch", headers: [("Navigation-Screens", "splitView,menu,bill")]), 422, "unsupported_client")

        // The order summary is declarative: a client without such a native screen still gets it.
        let ok = try server.send("POST", "/v1/bills/\(billId)/checkout", headers: [("Navigation-Screens", "tabBar,splitView,menu,bill")])
        #expect(ok.status == 200, "\(ok.text)")
        #expect(ok.json["navigation"]!.array.last?["screen"]?["renderer"] == "declarative")
    }

    @Test("without native menu and bill screens: their component trees, whose buttons name a row item and values; none for native clients")
    func declarativeMenuAndBill() throws {
        let server = try Server()
        let generic = [("Navigation-Screens", "tabBar,splitView")]
        let launch = try server.get("/v1/launch", headers: generic)
        #expect(launch.status == 200, "\(launch.text)")
        let menu = step(launch, 2)["screen"]!
        #expect(menu["renderer"] == "declarative" && menu["type"] == "menu")
        #expect(menu["payload"]!["items"]!.array.count > 5, "the menu's data stays beside its tree")
        let sections = menu["payload"]!["components"]!.array
        #expect(sections.first?["title"] == "Coffee")
        let buttons = sections.flatMap { $0["children"]!.array }.filter { $0["type"] == "button" }
        #expect(buttons.allSatisfy { $0["action"] == "addItem" && $0["item"]?["id"] != nil })
        #expect(buttons.first { $0["item"] == ["id": "latte"] }?["title"] == "Latte · 4.75 USD")
        let unavailable = sections.flatMap { $0["children"]!.array }.filter { $0["type"] == "row" }
        #expect(unavailable == [["type": "row", "title": "Pumpkin Spice Latte", "value": "Unavailable"]])

        let billId = step(launch, 3)["screen"]!["inputs"]!["billId"]!.string
        #expect(step(launch, 3)["screen"]!["renderer"] == "declarative")
        #expect(step(launch, 3)["screen"]!["payload"]!["components"]!.array.map { $0["text"] } == [.string("Open · \(billId)"), "No items yet.", nil, nil, nil, nil, nil, nil, nil])

        // Adding an item answers the bill's tree: a line with −1 (above 1), +1 and Remove, and checkout.
        try server.add("latte", to: billId)
        let added = try server.send("POST", "/v1/bills/\(billId)/items", json: ["menuItemId": "latte", "quantity": 1], headers: generic)
        #expect(added.status == 200, "\(added.text)")
        let bill = step(added, 0)["screen"]!
        #expect(bill["renderer"] == "declarative" && bill["payload"]!["id"] == .string(billId))
        let lineId = added.json["bill"]!["lines"]!.array[0]["lineId"]!
        let lines = bill["payload"]!["components"]!.array[1]
        #expect(lines["title"] == "Items")
        #expect(
            lines["children"]!.array == [
                ["type": "row", "title": "2 × Latte", "detail": "4.75 USD each", "value": "9.50 USD"],
                ["type": "button", "title": "−1 Latte", "action": "setQuantity", "style": "secondary", "item": ["lineId": lineId], "values": ["quantity": 1]],
                ["type": "button", "title": "+1 Latte", "action": "setQuantity", "style": "secondary", "item": ["lineId": lineId], "values": ["quantity": 3]],
                ["type": "button", "title": "Note for Latte", "action": "setNote", "style": "secondary", "item": ["lineId": lineId]],
                ["type": "button", "title": "Remove Latte", "action": "removeLine", "style": "destructive", "item": ["lineId": lineId]],
            ])
        // After the totals: checkout, then a new bill, the open bills, a name, a discount and void.
        let billButtons = Array(bill["payload"]!["components"]!.array.suffix(6))
        let checkout = billButtons[0]
        #expect(checkout["action"] == "checkout" && checkout["title"] == .string("Check out \(money(added.json["bill"]!["totalMinor"]!.int)) USD"))
        #expect(billButtons.dropFirst().map { $0["action"]!.string } == ["newBill", "showBills", "setLabel", "setDiscount", "void"])
        let actions = Set(bill["actions"]!.array.map { $0["name"]!.string })
        #expect(Set((lines["children"]!.array.dropFirst() + billButtons).map { $0["action"]!.string }) == actions)

        // A checked-out bill's tree has no line controls, only a new bill, the open bills and its
        // name: it is paid, reopened or voided on its summary.
        let checkedOut = try server.send("POST", "/v1/bills/\(billId)/checkout", headers: generic)
        let frozen = step(checkedOut, 0)["screen"]!["payload"]!["components"]!.array
        #expect(frozen.first?["text"] == .string("Checked out · \(billId)"))
        #expect(frozen.filter { $0["type"] == "button" }.map { $0["action"]!.string } == ["newBill", "showBills", "setLabel"])
        #expect(step(checkedOut, 0)["screen"]!["actions"]!.array.map { $0["name"]!.string } == ["setLabel", "newBill", "showBills"])
        #expect(step(checkedOut, 1)["screen"]!["actions"]!.array.map { $0["name"]!.string } == ["pay", "payPart", "cancel", "void"])
        #expect(!frozen[1]["children"]!.array.contains { $0["type"] == "button" })

        // A client with the native screens gets no tree.
        let native = try server.get("/v1/launch", headers: [("Navigation-Screens", "tabBar,splitView,menu,bill")])
        for index in [2, 3] {
            #expect(step(native, index)["screen"]!["renderer"] == "native")
            #expect(step(native, index)["screen"]!["payload"]!["components"] == nil)
        }
    }

    private func money(_ minor: Int64) -> String { "\(minor / 100).\(String(format: "%02d", minor % 100))" }

    @Test("pay replaces the paid bill with the next one, once; cancel dismisses and replaces the bill")
    func billEndpointSteps() throws {
        let server = try Server()
        let billId = try currentBill(server)
        try server.add("latte", to: billId)
        #expect(try server.send("POST", "/v1/bills/\(billId)/checkout").status == 200)
        let cancel = try server.send("POST", "/v1/bills/\(billId)/checkout/cancel")
        #expect(ops(cancel) == ["dismiss orderSummary", "replace bill"])
        let checkout = try server.send("POST", "/v1/bills/\(billId)/checkout")
        #expect(ops(checkout) == ["replace bill", "present orderSummary"])
        let total = checkout.json["bill"]!["totalMinor"]!.int
        let pay = try server.send("POST", "/v1/bills/\(billId)/pay", json: ["method": "card", "amountMinor": .int(total)])
        #expect(pay.status == 200, "\(pay.text)")
        #expect(ops(pay) == ["dismiss orderSummary", "replace bill"])
        #expect(step(pay, 1)["screen"]!["inputs"] == ["billId": pay.json["nextBill"]!["id"]!])
    }

    @Test("routemap routes prints the tree; routes check passes on the shipped registry")
    func routesCommand() throws {
        let tree = try runRoutemap(["routes"])
        #expect(tree.status == 0)
        #expect(tree.output.contains("tabBar  [root]"))
        #expect(tree.output.contains("      orderSummary  [present modal in navigation]"))
        // The drawer: the tab bar's second tab, beside the Order tab.
        #expect(tree.output.contains("\n  splitContainer  [tab]"))
        #expect(tree.output.contains("\n  drawer  [tab] drawer \"Drawer\" offers declarative links routemap://drawer\n"), "\(tree.output)")
        let check = try runRoutemap(["routes", "check"])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("no problems"))
    }

    @Test("routes --app: each app's tree and check; an unknown app is a usage error")
    func routesPerApp() throws {
        let pos = try runRoutemap(["routes", "--app", "pos"])
        #expect(pos.status == 0 && pos.output.contains("tabBar  [root]"))
        let trivia = try runRoutemap(["routes", "--app", "trivia"])
        #expect(trivia.status == 0, "\(trivia.output)")
        #expect(trivia.output.contains("trivia  [root]"))
        #expect(trivia.output.contains("difficultyMenu  [present popover"))
        #expect(!trivia.output.contains("tabBar"))
        let check = try runRoutemap(["routes", "check", "--app", "trivia"])
        #expect(check.status == 0 && check.output.contains("no problems"), "\(check.output)")
        let unknown = try runRoutemap(["routes", "--app", "chess"])
        #expect(unknown.status == 64, "\(unknown.output)")
        #expect(unknown.output.contains("no app 'chess'"))
    }
}
