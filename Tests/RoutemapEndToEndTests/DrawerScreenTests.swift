import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// The drawer screen over HTTP against the real binary (SQLite, or PostgreSQL when
/// `ROUTEMAP_TEST_DATABASE_URL` is set): the tab beside the Order tab, walked to and linked,
/// and every shift change answering `replace drawer` with the drawer as it left it, the same on
/// a keyed retry.
@Suite("The drawer screen, end to end")
struct DrawerScreenTests {
    private static let pos = "/v1/apps/pos"

    private func ops(_ response: TestResponse) -> [String] {
        response.json["navigation"]?.array.map { "\($0["op"]!.string) \($0["route"]!.string)" } ?? []
    }

    /// The drawer's screen in the answer's only step, which must be `replace drawer`.
    private func replacedDrawer(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) -> JSON {
        #expect(ops(response) == ["replace drawer"], "\(response.text)", sourceLocation: sourceLocation)
        return response.json["navigation"]?.array.first?["screen"] ?? .null
    }

    private func actionNames(_ screen: JSON) -> [String] { screen["actions"]?.array.map { $0["name"]?.string ?? "" } ?? [] }

    @Test("launch lists the drawer tab and still shows the Order tab; a walk and routemap://drawer select the drawer")
    func tab() throws {
        let server = try Server()
        let launch = try server.get("/v1/launch")
        let steps = launch.json["navigation"]!.array
        #expect(steps.map { "\($0["op"]!.string) \($0["route"]!.string)" } == ["setRoot tabBar", "selectTab splitContainer", "embed menu", "embed bill"])
        #expect(steps[0]["tabs"] == [["route": "splitContainer", "title": "Order"], ["route": "drawer", "title": "Drawer"]])
        let stack = try #require(launch.json["stack"])

        let walked = try server.send("POST", Self.pos + "/navigate", json: ["from": stack, "to": "drawer"])
        #expect(walked.status == 200, "\(walked.text)")
        #expect(ops(walked) == ["selectTab drawer"])
        #expect(walked.json["stack"] == [["route": "tabBar", "inputs": [:]], ["route": "drawer", "inputs": [:]]])
        let screen = try #require(walked.json["navigation"]?.array.first?["screen"])
        #expect(screen["type"] == "drawer" && screen["title"] == "Drawer" && screen["renderer"] == "native" && screen["inputs"] == nil)
        #expect(screen["payload"] == ["currency": "USD", "shift": .null, "lastClosedShift": .null])
        #expect(actionNames(screen) == ["openShift"])
        let open = try #require(screen["actions"]?.array.first)
        #expect(open["path"] == "/v1/shifts" && open["body"] == ["openingFloatMinor": "{value.openingFloatMinor}"])
        #expect(open["headers"] == ["Idempotency-Key": "{idempotencyKey}"])

        // Back to the Order tab: its initial contents again, the current bill in focus.
        let back = try server.send("POST", Self.pos + "/navigate", json: ["from": walked.json["stack"]!, "to": "bill"])
        #expect(ops(back) == ["selectTab splitContainer", "embed menu", "embed bill"])
        #expect(back.json["stack"] == stack)

        let linked = try server.get("/v1/resolve?url=routemap%3A%2F%2Fdrawer&from=tabBar,splitContainer,bill")
        #expect(linked.status == 200, "\(linked.text)")
        #expect(ops(linked) == ["selectTab drawer"])

        // A client without the native screen gets the components.
        let declarative = try server.send(
            "POST", Self.pos + "/navigate", json: ["from": stack, "to": "drawer"], headers: [("Navigation-Screens", "tabBar,splitView,menu,bill")])
        let drawn = try #require(declarative.json["navigation"]?.array.first?["screen"])
        #expect(drawn["renderer"] == "declarative")
        #expect(drawn["payload"]?["components"]?.array.contains { $0["type"] == "button" && $0["action"] == "openShift" } == true)
    }

    @Test("open, pay in, pay out and close each answer replace drawer with the drawer after them; a keyed retry gets the same answer")
    func changes() throws {
        let server = try Server()
        let key = { (value: String) in [("Idempotency-Key", value)] }

        let opened = try server.send("POST", "/v1/shifts", json: ["openingFloatMinor": 10_000], headers: key("drawer-open"))
        #expect(opened.status == 201, "\(opened.text)")
        #expect(opened.json["status"] == "open" && opened.json["expectedCashMinor"] == 10_000)
        var screen = replacedDrawer(opened)
        var shift = opened.json.objectValue ?? [:]
        shift["navigation"] = nil
        #expect(screen["payload"] == ["currency": "USD", "shift": .object(shift), "lastClosedShift": .null])
        #expect(actionNames(screen) == ["payIn", "payOut", "closeShift"])
        let payIn = try #require(screen["actions"]?.array.first)
        #expect(payIn["path"] == "/v1/shifts/current/movements")
        #expect(payIn["body"] == ["kind": "pay_in", "amountMinor": "{value.amountMinor}", "reason": "{value.reason}"])
        let replayed = try server.send("POST", "/v1/shifts", json: ["openingFloatMinor": 10_000], headers: key("drawer-open"))
        #expect(replayed.status == 201 && replayed.header("Idempotent-Replayed") == "true" && replayed.json == opened.json)

        let paidIn = try server.send(
            "POST", "/v1/shifts/current/movements", json: ["kind": "pay_in", "amountMinor": 1000, "reason": "Change"], headers: key("drawer-in"))
        #expect(paidIn.status == 200, "\(paidIn.text)")
        screen = replacedDrawer(paidIn)
        #expect(screen["payload"]?["shift"] == paidIn.json["shift"] && paidIn.json["shift"]?["expectedCashMinor"] == 11_000)
        #expect(paidIn.json["movement"]?["kind"] == "pay_in")
        let paidOut = try server.send("POST", "/v1/shifts/current/movements", json: ["kind": "pay_out", "amountMinor": 1200, "reason": "Milk"])
        #expect(replacedDrawer(paidOut)["payload"]?["shift"]?["expectedCashMinor"] == 9800)
        let movementAgain = try server.send(
            "POST", "/v1/shifts/current/movements", json: ["kind": "pay_in", "amountMinor": 1000, "reason": "Change"], headers: key("drawer-in"))
        #expect(movementAgain.header("Idempotent-Replayed") == "true" && movementAgain.json == paidIn.json)

        let closed = try server.send("POST", "/v1/shifts/current/close", json: ["countedCashMinor": 9775], headers: key("drawer-close"))
        #expect(closed.status == 200, "\(closed.text)")
        #expect(closed.json["varianceMinor"] == -25 && closed.json["status"] == "closed")
        screen = replacedDrawer(closed)
        var report = closed.json.objectValue ?? [:]
        report["navigation"] = nil
        #expect(screen["payload"] == ["currency": "USD", "shift": .null, "lastClosedShift": .object(report)])
        #expect(actionNames(screen) == ["openShift"])
        let closedAgain = try server.send("POST", "/v1/shifts/current/close", json: ["countedCashMinor": 9775], headers: key("drawer-close"))
        #expect(closedAgain.header("Idempotent-Replayed") == "true" && closedAgain.json == closed.json)

        // The walk reads the same: no shift open, the last one's cash-up (25 short) on screen.
        let walked = try server.send("POST", Self.pos + "/navigate", json: ["from": ["tabBar"], "to": "drawer"])
        #expect(walked.json["navigation"]?.array.first?["screen"]?["payload"] == screen["payload"])
        let reopened = try server.send("POST", "/v1/shifts", json: ["openingFloatMinor": 0])
        let reopenedScreen = replacedDrawer(reopened)
        #expect(reopenedScreen["payload"]?["lastClosedShift"] == .null && reopenedScreen["payload"]?["shift"]?["shiftId"] == reopened.json["shiftId"])

        // A refusal changes nothing and shows no screen; a client that cannot replace is refused first.
        let refused = try server.send("POST", "/v1/shifts", json: ["openingFloatMinor": 0])
        expectProblem(refused, 409, "shift_already_open")
        #expect(refused.json["navigation"] == nil)
        let unable = try server.send(
            "POST", "/v1/shifts/current/close", json: ["countedCashMinor": 0], headers: [("Navigation-Capabilities", "setRoot,selectTab,embed")])
        expectProblem(unable, 422, "unsupported_client")
        #expect(try server.get("/v1/shifts/current").status == 200)
    }
}
