import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// The navigation engine over HTTP: the registry, walks, deep links and client capabilities,
/// against the real binary (docs/navigation.md is the contract).
@Suite("Navigation, end to end")
struct NavigationTests {
    private let launchStack: JSON = ["tabBar", "splitContainer"]
    private let summaryStack: JSON = ["tabBar", "splitContainer", "bill", "orderSummary"]

    private func ops(_ response: TestResponse) -> [String] {
        response.json["navigation"]!.array.map { "\($0["op"]!.string) \($0["route"]!.string)" }
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
        #expect(bill.json["children"] == ["orderSummary"])
        #expect(bill.json["requires"] == ["billId"])
        #expect(bill.json["callerSupplied"] == ["billId"])
        #expect(bill.json["deepLinks"] == ["routemap://bills/{billId}"])
        expectProblem(try server.get("/v1/routes/nowhere"), 404, "not_found")
    }

    @Test("launch returns the stack it leaves the client with")
    func launchAnswersWithStack() throws {
        let server = try Server()
        let launch = try server.get("/v1/launch")
        #expect(launch.json["stack"] == launchStack)

        let current = launch.json["navigation"]!.array[3]["screen"]!["inputs"]!["billId"]!.string
        try server.add("latte", to: current)
        #expect(try server.send("POST", "/v1/bills/\(current)/checkout").status == 200)
        let checkedOut = try server.get("/v1/launch")
        #expect(ops(checkedOut) == ["setRoot tabBar", "selectTab splitContainer", "embed menu", "embed bill", "present orderSummary"])
        #expect(checkedOut.json["stack"] == summaryStack)
        #expect(checkedOut.json["navigation"]!.array.allSatisfy { $0["animated"] == false })
    }

    @Test("the worked example: to the summary derives the current bill; back to the menu only dismisses")
    func workedExample() throws {
        let server = try Server()
        let launch = try server.get("/v1/launch").json
        let billId = launch["navigation"]!.array[3]["screen"]!["inputs"]!["billId"]!.string
        try server.add("latte", 2, to: billId)

        let summary = try server.navigate(["from": launchStack, "to": "orderSummary"])
        #expect(summary.status == 200, "\(summary.text)")
        #expect(ops(summary) == ["present orderSummary"])
        #expect(summary.json["stack"] == summaryStack)
        let step = summary.json["navigation"]!.array[0]
        #expect(step["presentation"] == ["style": "modal", "inNavigationContainer": true])
        let screen = step["screen"]!
        #expect(screen["renderer"] == "declarative")
        #expect(screen["payload"]!["billId"] == .string(billId))
        let components = screen["payload"]!["components"]!.array
        #expect(components.contains { $0["type"] == "button" && $0["action"] == "pay" })
        #expect(components.first?["children"]?.array.first?["title"] == "2 × Latte")

        let back = try server.navigate(["from": summaryStack, "to": "menu"])
        #expect(ops(back) == ["dismiss orderSummary"])
        #expect(back.json["stack"] == ["tabBar", "splitContainer", "menu"])

        let sibling = try server.navigate(["from": ["tabBar", "splitContainer", "menu"], "to": "bill"])
        #expect(ops(sibling) == [])
        #expect(sibling.json["stack"] == ["tabBar", "splitContainer", "bill"])
    }

    @Test("to the top refreshes it; parent goes one hop up; sub opens over the top and parent closes it")
    func modes() throws {
        let server = try Server()
        let refresh = try server.navigate(["from": ["tabBar", "splitContainer", "bill"], "to": "bill"])
        #expect(ops(refresh) == ["refresh bill"])
        #expect(refresh.json["navigation"]!.array[0]["screen"]!["type"] == "bill")

        let parent = try server.navigate(["from": summaryStack, "mode": "parent"])
        #expect(ops(parent) == ["dismiss orderSummary"])
        #expect(parent.json["stack"] == ["tabBar", "splitContainer", "bill"])

        let sub = try server.navigate(["from": ["tabBar", "splitContainer", "menu"], "mode": "sub", "to": "bill"])
        #expect(sub.status == 200, "\(sub.text)")
        #expect(ops(sub) == ["present bill"])
        #expect(sub.json["navigation"]!.array[0]["presentation"] == ["style": "modal", "inNavigationContainer": true])
        #expect(sub.json["stack"] == ["tabBar", "splitContainer", "menu", "sub:bill"])

        let close = try server.navigate(["from": sub.json["stack"]!, "mode": "parent"])
        #expect(ops(close) == ["dismiss bill"])
        #expect(close.json["stack"] == ["tabBar", "splitContainer", "menu"])

        let fromRouteID = try server.navigate(["from": "menu", "to": "orderSummary"])
        #expect(ops(fromRouteID) == ["present orderSummary"])
    }

    @Test("inputs: only declared ones pass; an unknown bill is 404")
    func inputs() throws {
        let server = try Server()
        let billId = try server.newBill()["id"]!.string
        let summary = try server.navigate(["from": launchStack, "to": "orderSummary", "input": ["billId": .string(billId), "extra": "x"]])
        #expect(summary.status == 200)
        // The bill beside the menu is on screen already, but the request names a bill: it is replaced.
        #expect(ops(summary) == ["replace bill", "present orderSummary"])
        #expect(summary.json["navigation"]!.array[0]["screen"]!["payload"]!["id"] == .string(billId))
        #expect(summary.json["navigation"]!.array[1]["screen"]!["payload"]!["billId"] == .string(billId))
        expectProblem(try server.navigate(["from": launchStack, "to": "orderSummary", "input": ["billId": "bill_nope"]]), 404, "not_found")
    }

    @Test("bad navigations: each gets its problem")
    func errors() throws {
        let server = try Server()
        expectProblem(try server.navigate(["from": ["splitContainer"], "to": "menu"]), 422, "invalid_stack")
        expectProblem(try server.navigate(["from": ["tabBar", "menu"], "to": "menu"]), 422, "invalid_stack")
        expectProblem(try server.navigate(["from": ["tabBar", "nowhere"], "to": "menu"]), 404, "not_found")
        expectProblem(try server.navigate(["from": launchStack, "to": "nowhere"]), 404, "not_found")
        expectProblem(try server.navigate(["from": ["tabBar"], "mode": "parent"]), 422, "no_parent")
        expectProblem(try server.navigate(["from": launchStack]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": launchStack, "mode": "sideways", "to": "menu"]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": launchStack, "mode": "sub", "to": "tabBar"]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": 3, "to": "menu"]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": [], "to": "menu"]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": launchStack, "to": "menu", "input": ["billId": 5]]), 400, "invalid_field")
        expectProblem(try server.navigate(["from": launchStack, "to": "menu", "price": 1]), 400, "invalid_field")
        expectProblem(try server.navigate(["to": "menu"]), 400, "invalid_field")
    }

    @Test("deep links resolve to a walk with the link's inputs; unknown links are 404")
    func resolve() throws {
        let server = try Server()
        let billId = try server.newBill()["id"]!.string
        let url = "routemap://bills/\(billId)/summary"
        let resolved = try server.get("/v1/resolve?url=\(url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
        #expect(resolved.status == 200, "\(resolved.text)")
        #expect(ops(resolved) == ["replace bill", "present orderSummary"])
        #expect(resolved.json["navigation"]!.array[1]["screen"]!["payload"]!["billId"] == .string(billId))
        #expect(resolved.json["stack"] == summaryStack)

        let fromSummary = try server.get("/v1/resolve?url=routemap%3A%2F%2Fmenu&from=tabBar,splitContainer,bill,orderSummary")
        #expect(ops(fromSummary) == ["dismiss orderSummary"])
        #expect(fromSummary.json["stack"] == ["tabBar", "splitContainer", "menu"])

        expectProblem(try server.get("/v1/resolve?url=routemap%3A%2F%2Fnowhere"), 404, "not_found")
        expectProblem(try server.get("/v1/resolve?url=routemap%3A%2F%2Fbills%2Fbill_nope"), 404, "not_found")
        expectProblem(try server.get("/v1/resolve"), 400, "invalid_field")
        expectProblem(try server.get("/v1/resolve?url=routemap%3A%2F%2Fmenu&from=bill"), 422, "invalid_stack")
    }

    @Test("capabilities: refresh degrades to replace; a malformed App-Version is 400")
    func capabilities() throws {
        let server = try Server()
        let headers = [("Navigation-Capabilities", "setRoot,selectTab,embed,present,dismiss,push,pop,replace")]
        let refresh = try server.navigate(["from": ["tabBar", "splitContainer", "menu"], "to": "menu"], headers: headers)
        #expect(ops(refresh) == ["replace menu"])
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

        let noBillScreen = [("Navigation-Screens", "tabBar,splitView,menu")]
        expectProblem(
            try server.send("POST", "/v1/bills/\(billId)/items", json: ["menuItemId": "latte", "quantity": 1], headers: noBillScreen), 422,
            "unsupported_client")
        #expect(try server.bill(billId)["lines"]!.array[0]["quantity"] == 1)

        // The order summary is declarative: a client without such a native screen still gets it.
        let ok = try server.send("POST", "/v1/bills/\(billId)/checkout", headers: [("Navigation-Screens", "tabBar,splitView,menu,bill")])
        #expect(ok.status == 200, "\(ok.text)")
        #expect(ok.json["navigation"]!.array.last?["screen"]?["renderer"] == "declarative")
    }

    @Test("routemap routes prints the tree; routes check passes on the shipped registry")
    func routesCommand() throws {
        let tree = try runRoutemap(["routes"])
        #expect(tree.status == 0)
        #expect(tree.output.contains("tabBar  [root]"))
        #expect(tree.output.contains("      orderSummary  [present modal in navigation]"))
        let check = try runRoutemap(["routes", "check"])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("no problems"))
    }
}
