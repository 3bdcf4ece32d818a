import RoutemapJSON
import RoutemapNavigation
import Testing

/// A registry shaped like the POS app's, with builders that echo their inputs, so the tests see
/// which inputs and context each builder received.
private func posLikeRegistry() -> RouteRegistry<String> {
    var registry = RouteRegistry<String>()
    registry.register(Route("tabs", parent: nil, presentation: .root, screenType: "tabBar", title: "App"))
    registry.register(Route("split", parent: "tabs", presentation: .tab, screenType: "splitView", title: "Order", slots: ["primary", "secondary"]))
    registry.register(Route("other", parent: "tabs", presentation: .tab, screenType: "other", title: "Other"))
    registry.register(Route("left", parent: "split", presentation: .embed(slot: "primary"), screenType: "menu", title: "Menu")) { inputs, context in
        ScreenContent(payload: ["context": .string(context)])
    }
    registry.register(
        Route(
            "right", parent: "split", presentation: .embed(slot: "secondary"), screenType: "bill", title: "Bill", requires: ["billId"],
            callerSupplied: ["billId"], provides: ["billId"])
    ) { inputs, _ in
        ScreenContent(
            payload: ["billId": .string(inputs["billId"] ?? "")],
            actions: [ScreenAction(name: "checkout", method: "POST", path: "/b/{billId}/checkout")],
            inputs: ["billId": inputs["billId"] ?? ""])
    }
    registry.register(
        Route(
            "summary", parent: "right", presentation: .present(PresentationOptions(style: .modal, inNavigationContainer: true)),
            screenType: "summary", title: "Summary", renderer: .declarative))
    registry.register(Route("detail", parent: "left", presentation: .push, screenType: "detail", title: "Detail"))
    return registry
}

@Suite("Navigator")
struct NavigatorTests {
    let navigator = Navigator(registry: posLikeRegistry())

    @Test("launch sets the root with its tabs, selects the first tab, embeds its slots in order")
    func launch() throws {
        let steps = try navigator.launch(inputs: ["billId": "b1"], context: "ctx").steps
        #expect(steps.map(\.op) == [.setRoot, .selectTab, .embed, .embed])
        #expect(steps.map(\.route) == ["tabs", "split", "left", "right"])
        #expect(steps[0].tabs == [Tab(route: "split", title: "Order"), Tab(route: "other", title: "Other")])
        #expect(steps[2].slot == "primary")
        #expect(steps[3].slot == "secondary")
        #expect(steps[2].screen?.payload == ["context": "ctx"])
        #expect(steps[3].screen?.inputs == ["billId": "b1"])
        #expect(steps.allSatisfy { !$0.animated })
    }

    @Test("launch's stack ends at the last route its initial contents embed, with the inputs its screen shows")
    func launchStack() throws {
        let launch = try navigator.launch(inputs: ["billId": "b1"], context: "ctx")
        #expect(strings(launch.stack) == ["tabs", "split", "right{billId=b1}"])
    }

    @Test("a builder gets exactly its route's required inputs; the screen's inputs are the required and provided ones")
    func builderInputs() throws {
        var registry = RouteRegistry<String>()
        registry.register(Route("root", parent: nil, presentation: .root, screenType: "root", title: "Root"))
        registry.register(
            Route("a", parent: "root", presentation: .push, screenType: "a", title: "A", requires: ["x"], callerSupplied: ["x"], provides: ["y"])
        ) { inputs, _ in
            ScreenContent(payload: ["inputs": echoed(inputs)], inputs: ["y": "made-from-\(inputs["x"] ?? "")", "z": "not declared"])
        }
        let navigation = try Navigator(registry: registry).navigate(from: ["root"], .to, "a", input: ["x": "1", "w": "2"])
        #expect(navigation.steps[0].screen?.payload == ["inputs": ["x": "1"]])
        #expect(navigation.steps[0].screen?.inputs == ["x": "1", "y": "made-from-1"])
        #expect(strings(navigation.stack) == ["root", "a{x=1,y=made-from-1}"])
    }

    @Test("launch walks only into the first registered tab; pushed and presented routes stay hidden")
    func launchFirstTabOnly() throws {
        var registry = RouteRegistry<String>()
        registry.register(Route("tabs", parent: nil, presentation: .root, screenType: "tabBar", title: "App"))
        registry.register(Route("a", parent: "tabs", presentation: .tab, screenType: "a", title: "A"))
        registry.register(Route("b", parent: "tabs", presentation: .tab, screenType: "b", title: "B", slots: ["main"]))
        registry.register(Route("b1", parent: "b", presentation: .embed(slot: "main"), screenType: "b1", title: "B1"))
        registry.register(Route("a1", parent: "a", presentation: .push, screenType: "a1", title: "A1"))
        let steps = try Navigator(registry: registry).launch(inputs: [:], context: "").steps
        #expect(steps.map(\.route) == ["tabs", "a"])
        #expect(steps.map(\.op) == [.setRoot, .selectTab])
    }

    @Test("replace shows new content without a transition; unknown routes are errors")
    func replace() throws {
        let replace = try navigator.replace("right", inputs: ["billId": "b2"], context: "")
        #expect(replace.op == .replace && replace.animated == false)
        #expect(replace.screen?.payload == ["billId": "b2"])
        #expect(throws: NavigationError.unknownRoute("nope")) { try navigator.replace("nope", inputs: [:], context: "") }
    }

    @Test("builder errors reach the caller")
    func builderErrors() {
        struct Boom: Error {}
        var registry = posLikeRegistry()
        registry.register(Route("right", parent: "split", presentation: .embed(slot: "secondary"), screenType: "bill", title: "Bill")) { _, _ in
            throw Boom()
        }
        #expect(throws: Boom.self) { try Navigator(registry: registry).launch(inputs: [:], context: "") }
    }

    @Test("a registry without a root cannot launch")
    func noRoot() {
        #expect(throws: NavigationError.noRoot) { try Navigator(registry: RouteRegistry<String>()).launch(inputs: [:], context: "") }
    }
}

@Suite("Step JSON")
struct StepJSONTests {
    @Test("steps encode with only the members they use")
    func encoding() throws {
        let step = Step(
            op: .present, route: "summary", animated: true,
            presentation: PresentationOptions(style: .popover, anchor: "checkoutButton", inNavigationContainer: false),
            screen: Screen(
                type: "summary", renderer: .declarative, title: "Summary", payload: ["a": 1],
                actions: [ScreenAction(name: "pay", method: "POST", path: "/p/{billId}", row: nil, body: ["m": "{value.method}"])],
                inputs: ["billId": "b"]))
        #expect(
            step.json.encodedString
                == #"{"op":"present","route":"summary","animated":true,"presentation":{"style":"popover","anchor":"checkoutButton","inNavigationContainer":false},"screen":{"type":"summary","renderer":"declarative","title":"Summary","payload":{"a":1},"actions":[{"name":"pay","method":"POST","path":"/p/{billId}","body":{"m":"{value.method}"}}],"inputs":{"billId":"b"}}}"#
        )
        #expect(Step(op: .dismiss, route: "summary", animated: true).json.encodedString == #"{"op":"dismiss","route":"summary","animated":true}"#)
    }

    @Test("a sub step carries sub: true; stack entries encode route, inputs, and sub only when true")
    func subAndStack() throws {
        #expect(Step(op: .push, route: "a", animated: false, sub: true).json.encodedString == #"{"op":"push","route":"a","animated":false,"sub":true}"#)
        let stack = NavigationStack([StackEntry("root"), StackEntry("bill", inputs: ["billId": "b1", "a": "z"]), StackEntry("bill", openedAsSub: true)])
        #expect(
            stack.json.encodedString
                == #"[{"route":"root","inputs":{}},{"route":"bill","inputs":{"a":"z","billId":"b1"}},{"route":"bill","inputs":{},"sub":true}]"#)
    }
}
