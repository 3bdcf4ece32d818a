import RoutemapJSON
import RoutemapNavigation
import Testing

/// Walks over the POS-shaped tree (`TestTrees.pos`), the doc's worked example among them.
/// `billId` is derived as `current-bill` when a request does not name it.
@Suite("Walks over the POS tree")
struct POSWalkTests {
    /// Where launch leaves the client: the focus on the bill, the last route it embeds.
    static let launchStack = ["tabBar", "splitContainer", "bill{billId=current-bill}"]
    static let summaryStack = launchStack + ["orderSummary{billId=current-bill}"]
    static let menuStack = ["tabBar", "splitContainer", "menu"]

    static let rows: [WalkRow] = [
        // The worked example: the bill in focus provides the summary's billId.
        WalkRow(launchStack, .to, "orderSummary", steps: ["present orderSummary"], stack: summaryStack),
        // The bill not listed: the stack does not say what it shows, so it is replaced (and listed) first.
        WalkRow(menuStack, .to, "orderSummary", steps: ["replace bill", "present orderSummary"], stack: summaryStack),
        WalkRow(["tabBar", "splitContainer"], .to, "orderSummary", steps: ["replace bill", "present orderSummary"], stack: summaryStack),
        // Back to the menu: the summary is dismissed, the menu gets the focus with a replace.
        WalkRow(summaryStack, .to, "menu", steps: ["dismiss orderSummary", "replace menu"], stack: menuStack),
        WalkRow(summaryStack, .to, "bill", steps: ["dismiss orderSummary"], stack: launchStack),
        WalkRow(summaryStack, .to, "splitContainer", steps: ["dismiss orderSummary"], stack: launchStack),
        WalkRow(summaryStack, .to, "tabBar", steps: ["dismiss orderSummary"], stack: launchStack),
        // An embedded sibling on display: a replace moves the focus to it.
        WalkRow(menuStack, .to, "bill", steps: ["replace bill"], stack: launchStack),
        WalkRow(menuStack, .to, "bill", input: ["billId": "b2"], steps: ["replace bill"], stack: ["tabBar", "splitContainer", "bill{billId=b2}"]),
        WalkRow(["tabBar", "splitContainer"], .to, "menu", steps: ["replace menu"], stack: menuStack),
        WalkRow(launchStack, .to, "menu", steps: ["replace menu"], stack: menuStack),
        // To the top: one refresh; to a container whose focus the stack lists: nothing to do.
        WalkRow(launchStack, .to, "bill", steps: ["refresh bill"], stack: launchStack),
        WalkRow(summaryStack, .to, "orderSummary", steps: ["refresh orderSummary"], stack: summaryStack),
        WalkRow(["tabBar", "splitContainer"], .to, "splitContainer", steps: ["refresh splitContainer"], stack: ["tabBar", "splitContainer"]),
        WalkRow(launchStack, .to, "splitContainer", steps: [], stack: launchStack),
        // From the bare root, the tab and its initial contents, the walk's own route last.
        WalkRow(["tabBar"], .to, "splitContainer", steps: ["selectTab splitContainer", "embed menu", "embed bill"], stack: launchStack),
        WalkRow(["tabBar"], .to, "bill", steps: ["selectTab splitContainer", "embed menu", "embed bill"], stack: launchStack),
        WalkRow(["tabBar"], .to, "menu", steps: ["selectTab splitContainer", "embed bill", "embed menu"], stack: menuStack),
        // Another bill: the bill screen is replaced, after dismissing what covers it.
        WalkRow(
            ["tabBar", "splitContainer", "bill{billId=Y}", "orderSummary{billId=Y}"], .to, "bill", input: ["billId": "X"],
            steps: ["dismiss orderSummary", "replace bill"], stack: ["tabBar", "splitContainer", "bill{billId=X}"]),
        WalkRow(
            ["tabBar", "splitContainer", "bill{billId=Y}"], .to, "orderSummary", input: ["billId": "X"], steps: ["replace bill", "present orderSummary"],
            stack: ["tabBar", "splitContainer", "bill{billId=X}", "orderSummary{billId=X}"]),
        WalkRow(
            ["tabBar", "splitContainer", "bill{billId=Y}", "orderSummary{billId=Y}"], .to, "orderSummary", input: ["billId": "X"],
            steps: ["dismiss orderSummary", "replace bill", "present orderSummary"],
            stack: ["tabBar", "splitContainer", "bill{billId=X}", "orderSummary{billId=X}"]),
        // The bill on display is kept, and provides the summary's bill (no derived one).
        WalkRow(
            ["tabBar", "splitContainer", "bill{billId=Y}"], .to, "orderSummary", steps: ["present orderSummary"],
            stack: ["tabBar", "splitContainer", "bill{billId=Y}", "orderSummary{billId=Y}"]),
        // parent: the top screen leaves.
        WalkRow(summaryStack, .parent, steps: ["dismiss orderSummary"], stack: launchStack),
        // sub: over the top, the step marked sub, as a modal in a navigation container for an
        // embedded route; parent closes it.
        WalkRow(summaryStack, .sub, "menu", steps: ["present sub:menu"], stack: summaryStack + ["sub:menu"]),
        WalkRow(summaryStack + ["sub:menu"], .parent, steps: ["dismiss menu"], stack: summaryStack),
        WalkRow(
            launchStack, .sub, "splitContainer", steps: ["present sub:splitContainer", "embed menu", "embed bill"],
            stack: launchStack + ["sub:splitContainer", "bill{billId=current-bill}"]),
        WalkRow(launchStack + ["sub:splitContainer", "bill{billId=current-bill}"], .parent, steps: ["dismiss splitContainer"], stack: launchStack),
        // A sub entry takes its inputs from the stack below it.
        WalkRow(
            ["tabBar", "splitContainer", "bill{billId=Y}"], .sub, "orderSummary", steps: ["present sub:orderSummary"],
            stack: ["tabBar", "splitContainer", "bill{billId=Y}", "sub:orderSummary{billId=Y}"]),
        // to inside a sub entry's subtree stays inside it; outside, the sub entry goes.
        WalkRow(
            launchStack + ["sub:splitContainer"], .to, "orderSummary", steps: ["replace bill", "present orderSummary"],
            stack: launchStack + ["sub:splitContainer", "bill{billId=current-bill}", "orderSummary{billId=current-bill}"]),
        WalkRow(
            launchStack + ["sub:bill{billId=current-bill}"], .to, "orderSummary", steps: ["present orderSummary"],
            stack: launchStack + ["sub:bill{billId=current-bill}", "orderSummary{billId=current-bill}"]),
        WalkRow(launchStack + ["sub:bill{billId=current-bill}"], .to, "menu", steps: ["dismiss bill", "replace menu"], stack: menuStack),
        // The same route presented twice: each dismiss names the topmost entry of its route.
        WalkRow(
            summaryStack + ["sub:orderSummary{billId=current-bill}"], .to, "menu",
            steps: ["dismiss orderSummary", "dismiss orderSummary", "replace menu"], stack: menuStack),
        WalkRow(summaryStack + ["sub:orderSummary{billId=current-bill}"], .parent, steps: ["dismiss orderSummary"], stack: summaryStack),
        // Regression (found by the walk property test): a sub entry whose base shows another bill
        // goes with it; the walk does not open it again.
        WalkRow(
            ["tabBar", "splitContainer", "bill{billId=v2}", "orderSummary{billId=v1}", "sub:bill{billId=v2}", "orderSummary{billId=v2}"], .to,
            "orderSummary", input: ["billId": "v1"], steps: ["dismiss orderSummary", "dismiss orderSummary", "replace bill", "present orderSummary"],
            stack: ["tabBar", "splitContainer", "bill{billId=v1}", "orderSummary{billId=v1}"]),
    ]

    @Test("walk table", arguments: rows)
    func walk(row: WalkRow) throws {
        try row.check(TestTrees.posNavigator, registry: TestTrees.pos)
    }

    @Test("launch: setRoot with its tabs, the first tab, its slots in order; the stack ends at the last embedded route, with its inputs")
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
        for from in [Self.launchStack, Self.summaryStack, Self.menuStack] {
            for route in TestTrees.pos.routes where route.presentation != .root {
                let sub = try navigator.navigate(from: from, .sub, route.id)
                let back = try navigator.navigate(from: strings(sub.stack), .parent)
                #expect(strings(back.stack) == from, "sub \(route.id) from \(from)")
                #expect(back.steps.count == 1 && back.steps[0].route == route.id)
            }
        }
    }

    // MARK: The shipped registry's drawer tab

    /// The shipped point-of-sale registry (every builder `echo`), `billId` derived as in `posNavigator`.
    static let shippedNavigator = Navigator(registry: TestTrees.shippedPOS) { name, _ in name == "billId" ? "current-bill" : nil }
    static let drawerStack = ["tabBar", "drawer"]

    static let drawerRows: [WalkRow] = [
        // The tab tapped: the Order tab's screens stay unlisted, the drawer is selected.
        WalkRow(launchStack, .to, "drawer", steps: ["selectTab drawer"], stack: drawerStack),
        WalkRow(menuStack, .to, "drawer", steps: ["selectTab drawer"], stack: drawerStack),
        WalkRow(["tabBar"], .to, "drawer", steps: ["selectTab drawer"], stack: drawerStack),
        // A presented screen covers the tab bar: it goes first.
        WalkRow(summaryStack, .to, "drawer", steps: ["dismiss orderSummary", "selectTab drawer"], stack: drawerStack),
        // The drawer again: read afresh in place.
        WalkRow(drawerStack, .to, "drawer", steps: ["refresh drawer"], stack: drawerStack),
        // Back to the Order tab: selected, with its initial contents (the current bill).
        WalkRow(drawerStack, .to, "splitContainer", steps: ["selectTab splitContainer", "embed menu", "embed bill"], stack: launchStack),
        WalkRow(drawerStack, .to, "bill", steps: ["selectTab splitContainer", "embed menu", "embed bill"], stack: launchStack),
        WalkRow(drawerStack, .to, "menu", steps: ["selectTab splitContainer", "embed bill", "embed menu"], stack: menuStack),
        WalkRow(drawerStack, .to, "orderSummary", steps: ["selectTab splitContainer", "embed menu", "embed bill", "present orderSummary"], stack: summaryStack),
    ]

    @Test("the shipped registry: walks to and from the drawer tab", arguments: drawerRows)
    func drawerWalk(row: WalkRow) throws {
        try row.check(Self.shippedNavigator, registry: TestTrees.shippedPOS)
    }

    @Test("the shipped registry's launch lists both tabs and selects Order: the drawer is not part of the initial UI")
    func shippedLaunch() throws {
        let launch = try Self.shippedNavigator.launch(inputs: [:], context: "ctx")
        #expect(describe(launch.steps) == ["setRoot tabBar", "selectTab splitContainer", "embed menu", "embed bill"])
        #expect(strings(launch.stack) == Self.launchStack)
        #expect(launch.steps[0].tabs == [Tab(route: "splitContainer", title: "Order"), Tab(route: "drawer", title: "Drawer")])
    }

    @Test("the shipped registry: routemap://drawer selects the drawer tab, a declarative-capable route with no inputs")
    func drawerLink() throws {
        let link = try #require(TestTrees.shippedPOS.resolve(url: "routemap://drawer"))
        #expect(link.route.id == "drawer" && link.inputs.isEmpty)
        let resolved = try Self.shippedNavigator.navigate(from: Self.summaryStack, .to, link.route.id)
        #expect(describe(resolved.steps) == ["dismiss orderSummary", "selectTab drawer"])
        #expect(strings(resolved.stack) == Self.drawerStack)
        let drawer = try #require(TestTrees.shippedPOS["drawer"])
        #expect(drawer.offersDeclarative && drawer.screenType == "drawer" && drawer.title == "Drawer" && drawer.requires.isEmpty)
    }

    @Test("parent from the root's screen (the root, its tab, an embedded route) has no parent")
    func noParent() {
        for from in [["tabBar"], ["tabBar", "splitContainer"], Self.launchStack, Self.menuStack] {
            #expect(throws: NavigationError.noParent) { try TestTrees.posNavigator.navigate(from: from, .parent) }
        }
    }
}
