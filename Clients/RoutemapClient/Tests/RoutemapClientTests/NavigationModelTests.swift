import Testing

@testable import RoutemapClient

/// The stack model, rule by rule (docs/navigation.md, "Applying steps to a stack"), over a
/// registry with every kind of route:
///
/// ```
/// root (root)
/// ├─ tabA (tab; slots primary, secondary)
/// │  ├─ left (embed primary)
/// │  ├─ other (embed primary)
/// │  ├─ right (embed secondary; provides itemId)
/// │  │  └─ detail (push)
/// │  │     └─ deeper (push)
/// │  └─ modal (present, modal in a navigation container)
/// └─ tabB (tab)
///    └─ pushed (push)
/// ```
@Suite("Navigation model: applying steps")
struct NavigationModelTests {
    static func route(_ id: RouteID, _ parent: RouteID?, _ presentation: RoutePresentation, slots: [String] = []) -> Route {
        Route(
            id: id, parent: parent, presentation: presentation, screenType: id, title: id, renderer: .native, offersDeclarative: false,
            slots: slots, requires: [], callerSupplied: [], provides: [], deepLinks: [], fallback: nil, minimumAppVersion: nil)
    }

    static let routes = RouteMap([
        route("root", nil, .root),
        route("tabA", "root", .tab, slots: ["primary", "secondary"]),
        route("left", "tabA", .embed(slot: "primary")),
        route("other", "tabA", .embed(slot: "primary")),
        route("right", "tabA", .embed(slot: "secondary")),
        route("detail", "right", .push),
        route("deeper", "detail", .push),
        route("modal", "tabA", .present(PresentationOptions(style: .modal, inNavigationContainer: true))),
        route("tabB", "root", .tab),
        route("pushed", "tabB", .push),
    ])

    private func step(_ op: StepOperation, _ route: RouteID, slot: String? = nil, inputs: [String: String] = [:], sub: Bool? = nil) -> Step {
        let shows = ![.dismiss, .pop, .popTo].contains(op)
        return Step(
            op: op, route: route, slot: slot,
            presentation: op == .present ? PresentationOptions(style: .modal, inNavigationContainer: true) : nil,
            screen: shows ? Screen(type: .unknown(route), title: route, inputs: inputs) : nil, sub: sub)
    }

    /// A model after the launch-like steps: root, tabA, left and right (with `itemId` 1).
    private func launched() throws -> NavigationModel {
        var model = NavigationModel(routes: Self.routes)
        for step in [
            step(.setRoot, "root"), step(.selectTab, "tabA"), step(.embed, "left", slot: "primary"),
            step(.embed, "right", slot: "secondary", inputs: ["itemId": "1"]),
        ] {
            try model.apply(step)
        }
        return model
    }

    private func routes(_ model: NavigationModel) -> [String] { model.stack.map(\.description) }
    private func shown(_ model: NavigationModel) -> Set<String> { Set(model.shown.map { "\($0.route)@\($0.layer)" }) }

    @Test("1. setRoot R → [R], and only R shown")
    func setRoot() throws {
        var model = try launched()
        try model.apply(step(.setRoot, "root"))
        #expect(routes(model) == ["root"])
        #expect(shown(model) == ["root@0"])
    }

    @Test("2. selectTab / embed: the entries above the parent's listing leave, R on top; what held the tab or slot is no longer shown")
    func selectTabAndEmbed() throws {
        var model = try launched()
        #expect(routes(model) == ["root", "tabA", "right{itemId=1}"], "the last embedded route has the focus")
        #expect(shown(model) == ["root@0", "tabA@0", "left@0", "right@0"], "both slots show their routes")
        try model.apply(step(.embed, "other", slot: "primary"))
        #expect(routes(model) == ["root", "tabA", "other"])
        #expect(shown(model) == ["root@0", "tabA@0", "other@0", "right@0"])
        try model.apply(step(.selectTab, "tabB"))
        #expect(routes(model) == ["root", "tabB"])
        #expect(shown(model) == ["root@0", "tabB@0"], "tabA leaves with what its slots showed")
    }

    @Test("2. selectTab / embed need the parent listed in the top screen, and the route declared so")
    func selectTabAndEmbedChecks() throws {
        var model = try launched()
        #expect(throws: NavigationModel.Violation.self) { try model.apply(step(.embed, "left", slot: "secondary")) }
        #expect(throws: NavigationModel.Violation.self) { try model.apply(step(.selectTab, "left")) }
        try model.apply(step(.present, "modal"))
        #expect(throws: NavigationModel.Violation.self, "tabA is covered by the modal") { try model.apply(step(.embed, "other", slot: "primary")) }
        var fresh = NavigationModel(routes: Self.routes)
        #expect(throws: NavigationModel.Violation.self) { try fresh.apply(step(.selectTab, "tabA")) }
    }

    @Test("3. push / present: the parent listed in the top screen; R on top, starting a screen")
    func pushAndPresent() throws {
        var model = try launched()
        try model.apply(step(.embed, "left", slot: "primary"))  // the focus moves to left
        #expect(throws: NavigationModel.Violation.self, "right is shown but not listed") { try model.apply(step(.push, "detail")) }
        try model.apply(step(.replace, "right", inputs: ["itemId": "1"]))  // lists it again, as a walk does
        try model.apply(step(.push, "detail", inputs: ["detailId": "d"]))
        #expect(routes(model) == ["root", "tabA", "right{itemId=1}", "detail{detailId=d}"])
        try model.apply(step(.push, "deeper"))
        #expect(routes(model) == ["root", "tabA", "right{itemId=1}", "detail{detailId=d}", "deeper"])
        #expect(shown(model).isSuperset(of: ["detail@3", "deeper@4"]))
        #expect(model.onDisplay.map(\.route) == ["deeper"], "only the top screen is on display")
        #expect(throws: NavigationModel.Violation.self, "modal's parent tabA is covered") { try model.apply(step(.present, "modal")) }
        #expect(throws: NavigationModel.Violation.self, "declared present, not push") { try model.apply(step(.push, "modal")) }
    }

    @Test("3. A push or present with sub: true goes on top of the whole stack as a sub entry")
    func sub() throws {
        var model = try launched()
        try model.apply(step(.present, "modal"))
        try model.apply(step(.present, "right", inputs: ["itemId": "2"], sub: true))
        #expect(routes(model) == ["root", "tabA", "modal", "sub:right{itemId=2}"])
        try model.apply(step(.present, "modal", sub: true))
        #expect(routes(model) == ["root", "tabA", "modal", "sub:right{itemId=2}", "sub:modal"])
        try model.apply(step(.dismiss, "modal"))
        try model.apply(step(.replace, "right", inputs: ["itemId": "3"]))
        #expect(routes(model) == ["root", "tabA", "modal", "sub:right{itemId=3}"], "a replace keeps the entry a sub entry")
    }

    @Test("4. dismiss R: the topmost presented R and everything above it leave, with their screens")
    func dismiss() throws {
        var model = try launched()
        try model.apply(step(.present, "modal"))
        try model.apply(step(.present, "right", sub: true))
        try model.apply(step(.present, "modal", sub: true))
        try model.apply(step(.dismiss, "modal"))
        #expect(routes(model) == ["root", "tabA", "modal", "sub:right"])
        try model.apply(step(.dismiss, "modal"))
        #expect(routes(model) == ["root", "tabA"])
        #expect(shown(model) == ["root@0", "tabA@0", "left@0", "right@0"])
        #expect(throws: NavigationModel.Violation.self) { try model.apply(step(.dismiss, "modal")) }
        #expect(throws: NavigationModel.Violation.self, "an embedded route is not presented") { try model.apply(step(.dismiss, "right")) }
    }

    @Test("5. pop R: R is the pushed first entry of the top screen, which leaves")
    func pop() throws {
        var model = try launched()
        try model.apply(step(.push, "detail"))
        try model.apply(step(.push, "deeper"))
        #expect(throws: NavigationModel.Violation.self, "detail is not on top") { try model.apply(step(.pop, "detail")) }
        try model.apply(step(.pop, "deeper"))
        #expect(routes(model) == ["root", "tabA", "right{itemId=1}", "detail"])
        #expect(!shown(model).contains("deeper@4"))
        try model.apply(step(.pop, "detail"))
        #expect(routes(model) == ["root", "tabA", "right{itemId=1}"])
        #expect(throws: NavigationModel.Violation.self, "right is embedded, not pushed") { try model.apply(step(.pop, "right")) }
    }

    @Test("6. popTo R: everything above the topmost R leaves; all of it in pushed screens, at least one")
    func popTo() throws {
        var model = try launched()
        try model.apply(step(.push, "detail"))
        try model.apply(step(.push, "deeper"))
        try model.apply(step(.popTo, "right"))
        #expect(routes(model) == ["root", "tabA", "right{itemId=1}"])
        #expect(shown(model) == ["root@0", "tabA@0", "left@0", "right@0"])
        #expect(throws: NavigationModel.Violation.self, "nothing above right") { try model.apply(step(.popTo, "right")) }
        try model.apply(step(.present, "modal"))
        #expect(throws: NavigationModel.Violation.self, "a presented screen above") { try model.apply(step(.popTo, "tabA")) }
        try model.apply(step(.dismiss, "modal"))
        try model.apply(step(.selectTab, "tabB"))
        try model.apply(step(.push, "pushed"))
        #expect(throws: NavigationModel.Violation.self, "tabB, above root, is in the root's screen") { try model.apply(step(.popTo, "root")) }
    }

    @Test("7. replace R: R listed on top, or embedded in a listed container, becomes the top entry with its new inputs")
    func replace() throws {
        var model = try launched()
        try model.apply(step(.replace, "right", inputs: ["itemId": "2"]))
        #expect(routes(model) == ["root", "tabA", "right{itemId=2}"])
        #expect(model.shown.filter { $0.route == "right" }.map(\.screen.inputs) == [["itemId": "2"]])
        try model.apply(step(.replace, "left"))
        #expect(routes(model) == ["root", "tabA", "left"], "the focus moves to the replaced route")
        #expect(model.onDisplay.first?.route == "left", "the most recently shown first")
        try model.apply(step(.replace, "right", inputs: ["itemId": "2"]))
        try model.apply(step(.push, "detail"))
        #expect(throws: NavigationModel.Violation.self, "left is covered") { try model.apply(step(.replace, "left")) }
        #expect(throws: NavigationModel.Violation.self, "a pushed route not listed") { try model.apply(step(.replace, "deeper")) }
    }

    @Test("8. refresh R: R is the top entry; nothing moves but its inputs")
    func refresh() throws {
        var model = try launched()
        try model.apply(step(.refresh, "right", inputs: ["itemId": "9"]))
        #expect(routes(model) == ["root", "tabA", "right{itemId=9}"])
        #expect(throws: NavigationModel.Violation.self, "tabA is not the top entry") { try model.apply(step(.refresh, "tabA")) }
        #expect(throws: NavigationModel.Violation.self, "left is shown but not the top entry") { try model.apply(step(.refresh, "left")) }
    }

    @Test("A step without a screen (a user gesture) keeps the screen shown for its route; its entry takes that screen's inputs")
    func gestureKeepsShownScreen() throws {
        var model = try launched()
        let launchedShown = shown(model)
        // A collapsed split view: the user goes over to the left column, and back to the right one.
        try model.apply(Step(op: .replace, route: "left"))
        #expect(routes(model) == ["root", "tabA", "left"])
        #expect(shown(model) == launchedShown, "both columns still show their screens")
        try model.apply(Step(op: .replace, route: "right"))
        #expect(routes(model) == ["root", "tabA", "right{itemId=1}"], "the entry takes the inputs of the screen shown for right")
        #expect(shown(model) == launchedShown)
        #expect(model.onDisplay.first { $0.route == "right" }?.screen.inputs == ["itemId": "1"])
        // The same by embed (a column tapped) and refresh: nothing shown changes.
        try model.apply(Step(op: .embed, route: "left", slot: "primary"))
        try model.apply(Step(op: .embed, route: "right", slot: "secondary"))
        try model.apply(Step(op: .refresh, route: "right"))
        #expect(routes(model) == ["root", "tabA", "right{itemId=1}"])
        #expect(shown(model) == launchedShown)
        // A replace with a screen still replaces it.
        try model.apply(step(.replace, "right", inputs: ["itemId": "2"]))
        #expect(model.shown.filter { $0.route == "right" }.map(\.screen.inputs) == [["itemId": "2"]])
        #expect(routes(model) == ["root", "tabA", "right{itemId=2}"])
    }

    @Test("A tab the user taps again (selectTab without a screen) shows what it showed when it was left, with its slots")
    func gestureReturnsToTab() throws {
        var model = try launched()
        try model.apply(step(.selectTab, "tabB", inputs: ["tabId": "b"]))
        #expect(shown(model) == ["root@0", "tabB@0"])
        try model.apply(Step(op: .selectTab, route: "tabA"))
        #expect(routes(model) == ["root", "tabA"])
        #expect(shown(model) == ["root@0", "tabA@0", "left@0", "right@0"], "tabA's screen and its columns are back")
        #expect(model.onDisplay.first { $0.route == "right" }?.screen.inputs == ["itemId": "1"])
        try model.apply(Step(op: .selectTab, route: "tabB"))
        #expect(routes(model) == ["root", "tabB{tabId=b}"], "the entry takes the inputs of tabB's screen")
        #expect(shown(model) == ["root@0", "tabB@0"])
        try model.apply(Step(op: .selectTab, route: "tabB"))
        #expect(routes(model) == ["root", "tabB{tabId=b}"], "the selected tab tapped again keeps its screen")
        #expect(shown(model) == ["root@0", "tabB@0"])
        // A tab the server shows anew comes with its own initial contents: what it showed before is forgotten.
        try model.apply(step(.selectTab, "tabA"))
        #expect(shown(model) == ["root@0", "tabA@0"])
        try model.apply(Step(op: .selectTab, route: "tabB"))
        try model.apply(Step(op: .selectTab, route: "tabA"))
        #expect(shown(model) == ["root@0", "tabA@0"])
        // Layers that leave take what their tab bars kept.
        try model.apply(step(.setRoot, "root"))
        try model.apply(Step(op: .selectTab, route: "tabB"))
        #expect(routes(model) == ["root", "tabB"])
        #expect(shown(model) == ["root@0"])
    }

    @Test("A step with an unknown op or route does not apply, and changes nothing")
    func unknown() throws {
        var model = try launched()
        let before = model.stack
        #expect(throws: NavigationModel.Violation.self) { try model.apply(Step(op: .unknown("flip"), route: "left")) }
        #expect(throws: NavigationModel.Violation.self) { try model.apply(step(.push, "nowhere")) }
        #expect(model.stack == before)
    }
}
