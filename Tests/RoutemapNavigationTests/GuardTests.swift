import RoutemapJSON
import RoutemapNavigation
import RoutemapTestSupport
import Testing

/// Guarded routes: a walk that would show a route whose guard fails is refused with that guard,
/// and any other walk is exactly the walk of the same registry without guards.
@Suite("Guarded routes")
struct GuardTests {
    static let twins: [(name: String, plain: RouteRegistry<String>, guarded: RouteRegistry<String>)] = [
        ("pos", TestTrees.pos, TestTrees.guardedPOS), ("deep", TestTrees.deep, TestTrees.guardedDeep),
    ]

    @Test("random walks: refused exactly when the unguarded walk shows a route whose guard fails; otherwise the same answer")
    func randomWalks() throws {
        let properties = WalkPropertyTests()
        var refused = 0
        var passed = 0
        for seed in WalkPropertyTests.seeds {
            var random = SeededRandom(seed: seed)
            for (name, plain, guarded) in Self.twins {
                let plainNavigator = Navigator(registry: plain, deriveInput: TestTrees.deriveAll)
                let guardedNavigator = Navigator(registry: guarded, deriveInput: TestTrees.deriveAll)
                for _ in 0..<12 {
                    let request = properties.randomRequest(plain, from: properties.randomStack(plain, &random), &random)
                    let label = "seed \(seed), \(name): \(request.mode.rawValue) \(request.target?.rawValue ?? "") from \(request.from)"
                    guard let expected = try? plainNavigator.navigate(request, context: "") else {
                        // Refused without guards (no parent, the root as sub): refused the same way with them.
                        #expect(throws: NavigationError.self, "\(label)") { try guardedNavigator.navigate(request, context: "") }
                        continue
                    }
                    let failing = expected.steps.first { step in
                        guard let screen = step.screen, let route = guarded[step.route], route.routeGuard != nil else { return false }
                        return !Self.holds(route.id, screen.inputs)
                    }
                    do {
                        let answer = try guardedNavigator.navigate(request, context: "")
                        #expect(failing == nil, "\(label): shows \(failing?.route.rawValue ?? "") although its guard fails")
                        #expect(answer == expected, "\(label)")
                        passed += 1
                    } catch let NavigationError.guardFailed(route, routeGuard) {
                        #expect(failing?.route == route, "\(label): refused for \(route), expected \(failing?.route.rawValue ?? "no refusal")")
                        #expect(guarded[route]?.routeGuard == routeGuard)
                        refused += 1
                    }
                }
            }
        }
        // Both outcomes happen often enough for the property to mean something.
        #expect(refused > 50 && passed > 500, "refused \(refused), passed \(passed)")
    }

    @Test("a walk to the order summary of a bill that is not ready is refused; of a ready one it presents it")
    func orderSummary() throws {
        let navigator = Navigator(registry: TestTrees.guardedPOS) { name, _ in name == "billId" ? "current-bill" : nil }
        let from = NavigationStack(strings: ["tabBar", "splitContainer"])
        #expect(throws: NavigationError.guardFailed(route: "orderSummary", TestTrees.readyBill.routeGuard)) {
            try navigator.navigate(NavigationRequest(from: from, target: "orderSummary"), context: "")
        }
        let shown = try navigator.navigate(NavigationRequest(from: from, target: "orderSummary", input: ["billId": "ready-1"]), context: "")
        #expect(shown.steps.map(\.op) == [.replace, .present])
        #expect(shown.stack.entries.last?.inputs == ["billId": "ready-1"])
        // A deep link is a walk too; a refresh of a summary on top checks again.
        let onTop = NavigationStack([StackEntry("tabBar"), StackEntry("splitContainer"), StackEntry("bill", inputs: ["billId": "x"]), StackEntry("orderSummary", inputs: ["billId": "x"])])
        #expect(throws: NavigationError.guardFailed(route: "orderSummary", TestTrees.readyBill.routeGuard)) {
            try navigator.navigate(NavigationRequest(from: onTop, target: "orderSummary"), context: "")
        }
        // Leaving a summary whose guard fails needs no guard: dismissing shows nothing.
        let back = try navigator.navigate(NavigationRequest(from: onTop, target: "menu"), context: "")
        #expect(back.steps.map(\.op) == [.dismiss, .replace])
    }

    @Test("the registry lists guards: route JSON and the text tree")
    func listing() throws {
        let route = try #require(TestTrees.guardedPOS["orderSummary"])
        #expect(route.json.objectValue?["guard"] == ["name": "billReady", "code": "bill_not_ready", "summary": "the bill is ready"])
        #expect(TestTrees.guardedPOS.treeText().contains("guard billReady (bill_not_ready: the bill is ready)"))
        #expect(TestTrees.pos["orderSummary"]?.json.objectValue?["guard"] == nil)
    }

    /// The predicates of the guarded twins, as the test trees declare them.
    static func holds(_ route: RouteID, _ inputs: RouteInputs) -> Bool {
        switch route {
        case "orderSummary": inputs["billId"]?.hasPrefix("ready") == true
        case "post": inputs["postId"] != "hidden"
        case "devices": false
        default: true
        }
    }
}
