import RoutemapJSON
import RoutemapNavigation
import Testing

/// Walks over the POS-shaped tree (`TestTrees.pos`), the doc's worked example among them.
/// `billId` is derived as `current-bill` when a request does not name it.
@Suite("Walks over the POS tree")
struct POSWalkTests {
    static let launchStack = ["tabBar", "splitContainer"]
    static let summaryStack = ["tabBar", "splitContainer", "bill", "orderSummary"]

    static let rows: [WalkRow] = [
        // The worked example: bill needs no step, it is alone in its slot of a container on screen.
        WalkRow(launchStack, .to, "orderSummary", steps: ["present orderSummary"], stack: summaryStack),
        WalkRow(["tabBar", "splitContainer", "menu"], .to, "orderSummary", steps: ["present orderSummary"], stack: summaryStack),
        // Going back to the menu dismisses the summary and nothing else.
        WalkRow(summaryStack, .to, "menu", steps: ["dismiss orderSummary"], stack: ["tabBar", "splitContainer", "menu"]),
        WalkRow(summaryStack, .to, "bill", steps: ["dismiss orderSummary"], stack: ["tabBar", "splitContainer", "bill"]),
        WalkRow(summaryStack, .to, "splitContainer", steps: ["dismiss orderSummary"], stack: launchStack),
        WalkRow(summaryStack, .to, "tabBar", steps: ["dismiss orderSummary"], stack: launchStack),
        // Into an embedded sibling already on screen: no step; a named input replaces it.
        WalkRow(["tabBar", "splitContainer", "menu"], .to, "bill", steps: [], stack: ["tabBar", "splitContainer", "bill"]),
        WalkRow(
            ["tabBar", "splitContainer", "menu"], .to, "bill", input: ["billId": "b2"], steps: ["replace bill"],
            stack: ["tabBar", "splitContainer", "bill"]),
        WalkRow(launchStack, .to, "menu", steps: [], stack: ["tabBar", "splitContainer", "menu"]),
        // To the top: one refresh.
        WalkRow(["tabBar", "splitContainer", "bill"], .to, "bill", steps: ["refresh bill"], stack: ["tabBar", "splitContainer", "bill"]),
        WalkRow(summaryStack, .to, "orderSummary", steps: ["refresh orderSummary"], stack: summaryStack),
        WalkRow(launchStack, .to, "splitContainer", steps: ["refresh splitContainer"], stack: launchStack),
        // From the bare root, the tab and its initial contents.
        WalkRow(["tabBar"], .to, "splitContainer", steps: ["selectTab splitContainer", "embed menu", "embed bill"], stack: launchStack),
        WalkRow(["tabBar"], .to, "bill", steps: ["selectTab splitContainer", "embed menu", "embed bill"], stack: ["tabBar", "splitContainer", "bill"]),
        // parent: one hop up.
        WalkRow(summaryStack, .parent, steps: ["dismiss orderSummary"], stack: ["tabBar", "splitContainer", "bill"]),
        WalkRow(["tabBar", "splitContainer", "bill"], .parent, steps: [], stack: launchStack),
        // sub: over the top, as a modal in a navigation container for an embedded route; parent closes it.
        WalkRow(summaryStack, .sub, "menu", steps: ["present menu"], stack: summaryStack + ["sub:menu"]),
        WalkRow(summaryStack + ["sub:menu"], .parent, steps: ["dismiss menu"], stack: summaryStack),
        WalkRow(
            launchStack, .sub, "splitContainer", steps: ["present splitContainer", "embed menu", "embed bill"],
            stack: launchStack + ["sub:splitContainer"]),
        WalkRow(launchStack + ["sub:splitContainer"], .parent, steps: ["dismiss splitContainer"], stack: launchStack),
        // to inside a sub entry's subtree stays inside it; outside, the sub entry goes.
        WalkRow(
            launchStack + ["sub:splitContainer"], .to, "orderSummary", steps: ["present orderSummary"],
            stack: launchStack + ["sub:splitContainer", "bill", "orderSummary"]),
        WalkRow(launchStack + ["sub:bill"], .to, "orderSummary", steps: ["present orderSummary"], stack: launchStack + ["sub:bill", "orderSummary"]),
        WalkRow(launchStack + ["sub:bill"], .to, "menu", steps: ["dismiss bill"], stack: ["tabBar", "splitContainer", "menu"]),
        // The same route presented twice: each dismiss names the topmost entry of its route.
        WalkRow(
            summaryStack + ["sub:orderSummary"], .to, "menu", steps: ["dismiss orderSummary", "dismiss orderSummary"],
            stack: ["tabBar", "splitContainer", "menu"]),
        WalkRow(summaryStack + ["sub:orderSummary"], .parent, steps: ["dismiss orderSummary"], stack: summaryStack),
    ]

    @Test("walk table", arguments: rows)
    func walk(row: WalkRow) throws {
        try row.check(TestTrees.posNavigator, registry: TestTrees.pos)
    }

    @Test("launch: setRoot with its tabs, the first tab, its slots in order; the stack lists the selected tab")
    func launch() throws {
        let launch = try TestTrees.posNavigator.launch(inputs: [:], context: "ctx")
        #expect(describe(launch.steps) == ["setRoot tabBar", "selectTab splitContainer", "embed menu", "embed bill"])
        #expect(strings(launch.stack) == Self.launchStack)
        #expect(launch.steps[0].tabs == [Tab(route: "splitContainer", title: "Order")])
        #expect(launch.steps.map(\.slot) == [nil, nil, "primary", "secondary"])
        #expect(launch.steps[3].screen?.payload["inputs"] == ["billId": "current-bill"])
        #expect(launch.steps.allSatisfy { !$0.animated })
    }

    @Test("the summary is presented as declared, animated, with the derived bill")
    func presentation() throws {
        let step = try TestTrees.posNavigator.navigate(from: Self.launchStack, .to, "orderSummary").steps[0]
        #expect(step.presentation == PresentationOptions(style: .modal, inNavigationContainer: true))
        #expect(step.animated)
        #expect(step.screen?.renderer == .declarative)
        #expect(step.screen?.payload["inputs"] == ["billId": "current-bill"])
        #expect(step.screen?.title == "Order summary")
    }

    @Test("sub then parent returns exactly to from, for every route")
    func subThenParent() throws {
        let navigator = TestTrees.posNavigator
        for from in [Self.launchStack, Self.summaryStack, ["tabBar", "splitContainer", "menu"]] {
            for route in TestTrees.pos.routes where route.presentation != .root {
                let sub = try navigator.navigate(from: from, .sub, route.id)
                let back = try navigator.navigate(from: strings(sub.stack), .parent)
                #expect(strings(back.stack) == from, "sub \(route.id) from \(from)")
                #expect(back.steps.count == 1 && back.steps[0].route == route.id)
            }
        }
    }

    @Test("parent from the root screen has no parent")
    func noParent() {
        #expect(throws: NavigationError.noParent) { try TestTrees.posNavigator.navigate(from: ["tabBar"], .parent) }
        #expect(throws: NavigationError.noParent) { try TestTrees.posNavigator.navigate(from: Self.launchStack, .parent) }
    }
}
