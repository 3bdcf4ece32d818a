import Foundation
import RoutemapNavigation
import RoutemapTestSupport
import Testing

/// Random walks checked against `ScreenModel`, the client's screen stack as docs/navigation.md
/// describes it. Every case is reproducible from its seed, which each failure prints; set
/// `ROUTEMAP_WALK_SEED` to run one seed only.
@Suite("Walk properties")
struct WalkPropertyTests {
    static let trees: [(name: String, registry: RouteRegistry<String>)] = [("deep", TestTrees.deep), ("pos", TestTrees.pos)]

    static let seeds: [UInt64] = {
        if let text = ProcessInfo.processInfo.environment["ROUTEMAP_WALK_SEED"], let seed = UInt64(text) { return [seed] }
        return Array(1...150)
    }()

    /// Clients the walks are degraded for: everything, no `popTo` (repeated pops), no `refresh`.
    static let clients: [ClientCapabilities] = [
        .everything,
        ClientCapabilities(operations: Set(StepOperation.allCases).subtracting([.popTo])),
        ClientCapabilities(operations: Set(StepOperation.allCases).subtracting([.refresh, .popTo]), styles: []),
    ]

    /// Failures recorded per test before it stops, so one bug does not bury the output.
    static let failureLimit = 8

    @Test("random (reachable stack, target, mode) pairs: every step legal, ends on the target, nothing undone")
    func randomPairs() {
        var failures = 0
        for seed in Self.seeds where failures < Self.failureLimit {
            var random = SeededRandom(seed: seed)
            for (name, registry) in Self.trees {
                let navigator = Navigator(registry: registry, deriveInput: TestTrees.deriveAll)
                for _ in 0..<12 {
                    let from = randomStack(registry, &random)
                    let (mode, target) = randomRequest(registry, &random)
                    let client = Self.clients.randomElement(using: &random)!
                    var model = ScreenModel(registry: registry, stack: from)
                    if let failure = check(navigator, &model, from: from, mode: mode, target: target, client: client) {
                        Issue.record("seed \(seed), \(name) tree: \(failure)")
                        failures += 1
                        break
                    }
                }
            }
        }
    }

    @Test("random sessions from launch: the model carries over from one answer to the next")
    func randomSessions() {
        var failures = 0
        for seed in Self.seeds where failures < Self.failureLimit {
            var random = SeededRandom(seed: seed)
            for (name, registry) in Self.trees {
                let navigator = Navigator(registry: registry, deriveInput: TestTrees.deriveAll)
                let client = Self.clients.randomElement(using: &random)!
                var model = ScreenModel(registry: registry)
                var current: [StackEntry]
                do {
                    let launch = try navigator.launch(inputs: [:], context: "", client: client)
                    try model.follow(launch, mode: .to, target: registry.root?.id)
                    model.reset(to: launch.stack.entries)
                    current = launch.stack.entries
                } catch {
                    Issue.record("seed \(seed), \(name) tree: launch: \(error)")
                    failures += 1
                    continue
                }
                for _ in 0..<25 {
                    let (mode, target) = randomRequest(registry, &random)
                    if let failure = check(navigator, &model, from: current, mode: mode, target: target, client: client) {
                        Issue.record("seed \(seed), \(name) tree, session: \(failure)")
                        failures += 1
                        break
                    }
                    current = model.stack
                }
            }
        }
    }

    // MARK: Checking one navigation

    /// Navigates, follows the steps in the model and checks the answer; the failure, or `nil`.
    /// After a `sub`, also checks that `parent` with the returned stack goes back to `from`.
    private func check(
        _ navigator: Navigator<String>, _ model: inout ScreenModel, from: [StackEntry], mode: NavigationMode, target: RouteID?,
        client: ClientCapabilities
    ) -> String? {
        let request = NavigationRequest(from: NavigationStack(from), mode: mode, target: target)
        let label = "\(mode.rawValue) \(target?.rawValue ?? "") from \(NavigationStack(from)) for \(client.label)"
        let navigation: Navigation
        do {
            navigation = try navigator.navigate(request, context: "", client: client)
        } catch let error as NavigationError {
            return expectedError(error, registry: navigator.registry, from: from, mode: mode, target: target)
                ? nil : "\(label): unexpected \(error)"
        } catch {
            return "\(label): unexpected \(error)"
        }
        let answer = "\(label) → \(describe(navigation.steps)) stack \(navigation.stack)"
        do {
            try model.follow(navigation, mode: mode, target: target)
            try checkAnswer(navigation, registry: navigator.registry, from: from, mode: mode, target: target, client: client)
            model.reset(to: navigation.stack.entries)
        } catch {
            return "\(answer): \(error)"
        }
        if mode == .sub {
            let back = NavigationRequest(from: navigation.stack, mode: .parent)
            do {
                let parent = try navigator.navigate(back, context: "", client: client)
                try model.follow(parent, mode: .parent, target: nil)
                guard parent.stack.entries == from else {
                    throw ScreenModel.Violation("parent after sub ends at \(parent.stack), not back at \(NavigationStack(from))")
                }
                model.reset(to: parent.stack.entries)
            } catch {
                return "\(answer), then parent: \(error)"
            }
        }
        return nil
    }

    /// The errors a random request may legitimately get: `parent` from the root screen (the
    /// root and its selected tabs), `sub` of the root.
    private func expectedError(
        _ error: NavigationError, registry: RouteRegistry<String>, from: [StackEntry], mode: NavigationMode, target: RouteID?
    ) -> Bool {
        switch (error, mode) {
        case (.noParent, .parent):
            return from.dropFirst().allSatisfy { !$0.openedAsSub && registry[$0.route]?.presentation == .tab }
        case (.rootAsSub, .sub):
            return target == registry.root?.id
        default:
            return false
        }
    }

    /// What the answer must say, by mode (docs/navigation.md, "Walks"), and what its steps carry.
    private func checkAnswer(
        _ navigation: Navigation, registry: RouteRegistry<String>, from: [StackEntry], mode: NavigationMode, target: RouteID?,
        client: ClientCapabilities
    ) throws {
        let stack = navigation.stack.entries
        func fail(_ text: String) -> ScreenModel.Violation { ScreenModel.Violation(text) }
        func tabChain(_ entries: ArraySlice<StackEntry>, below container: RouteID) -> Bool {
            var parent = container
            for entry in entries {
                guard !entry.openedAsSub, let route = registry[entry.route], route.presentation == .tab, route.parent == parent else {
                    return false
                }
                parent = entry.route
            }
            return true
        }
        switch mode {
        case .to:
            let target = target!
            let expected = targetStack(registry, from: from, to: target)
            guard stack.starts(with: expected), tabChain(stack[expected.count...], below: target) else {
                throw fail("the stack should be \(NavigationStack(expected)) and its selected tabs")
            }
            if expected == from {
                let refresh: StepOperation = client.performs(.refresh) ? .refresh : .replace
                guard navigation.steps.map(\.op) == [refresh], navigation.steps[0].route == target else {
                    throw fail("to the top of from should be one \(refresh)")
                }
            }
        case .parent:
            guard stack.count < from.count, from.starts(with: stack) else { throw fail("parent should go up from \(NavigationStack(from))") }
        case .sub:
            let opened = from + [StackEntry(target!, openedAsSub: true)]
            guard stack.starts(with: opened), tabChain(stack[opened.count...], below: target!) else {
                throw fail("sub should open sub:\(target!) over \(NavigationStack(from))")
            }
        }
        for step in navigation.steps {
            let showsScreen = ![StepOperation.dismiss, .pop, .popTo].contains(step.op)
            guard (step.screen != nil) == showsScreen else { throw fail("\(step.op) \(step.route) screen: \(step.screen == nil ? "missing" : "unexpected")") }
            guard client.performs(step.op) else { throw fail("\(step.op) is not something the client performs") }
            if let style = step.presentation?.style, style != .modal, !client.shows(style) { throw fail("\(style) is not shown by the client") }
        }
    }

    /// The `to` target stack as the doc defines it: the target's path from the root, or, when a
    /// `sub` entry of `from` is the target or one of its ancestors (the topmost such entry),
    /// `from` up to that entry followed by the path below it.
    private func targetStack(_ registry: RouteRegistry<String>, from: [StackEntry], to target: RouteID) -> [StackEntry] {
        let path = registry.path(to: target)!.map(\.id)
        if let index = from.indices.last(where: { from[$0].openedAsSub && path.contains(from[$0].route) }) {
            let below = path[(path.firstIndex(of: from[index].route)! + 1)...]
            return Array(from[...index]) + below.map { StackEntry($0) }
        }
        return path.map { StackEntry($0) }
    }

    // MARK: Random input

    /// A stack a client can hold: a route's path from the root; sometimes a `sub` entry over
    /// it and a path below that; and the selected tab (any) of a tab container on top.
    private func randomStack(_ registry: RouteRegistry<String>, _ random: inout SeededRandom) -> [StackEntry] {
        let routes = registry.routes
        var entries = registry.path(to: routes.randomElement(using: &random)!.id)!.map { StackEntry($0.id) }
        if Int.random(in: 0..<3, using: &random) == 0 {
            let opened = routes.filter { $0.presentation != .root }.randomElement(using: &random)!
            entries.append(StackEntry(opened.id, openedAsSub: true))
            let below = routes.filter { $0.id != opened.id && registry.isAncestor(opened.id, of: $0.id) }
            if let deeper = below.randomElement(using: &random), Bool.random(using: &random) {
                let path = registry.path(to: deeper.id)!.map(\.id)
                entries += path[(path.firstIndex(of: opened.id)! + 1)...].map { StackEntry($0) }
            }
        }
        while let last = entries.last,
            let tab = registry.children(of: last.route).filter({ $0.presentation == .tab }).randomElement(using: &random)
        {
            entries.append(StackEntry(tab.id))
        }
        return entries
    }

    private func randomRequest(_ registry: RouteRegistry<String>, _ random: inout SeededRandom) -> (NavigationMode, RouteID?) {
        let target = registry.routes.randomElement(using: &random)!.id
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6: return (.to, target)
        case 6..<8: return (.parent, nil)
        default: return (.sub, target)
        }
    }
}

@Suite("Screen model")
struct ScreenModelTests {
    private func follow(_ registry: RouteRegistry<String>, from: [String], _ steps: [Step], stack: [String], mode: NavigationMode = .to, target: RouteID?)
        throws
    {
        var model = ScreenModel(registry: registry, stack: from.map(StackEntry.init(parsing:)))
        try model.follow(Navigation(steps: steps, stack: NavigationStack(stack.map(StackEntry.init(parsing:)))), mode: mode, target: target)
    }

    private let screen = Screen(type: "t", renderer: .native, title: "T", payload: [:], actions: [])
    private func show(_ op: StepOperation, _ route: RouteID, slot: String? = nil, style: PresentationStyle? = nil) -> Step {
        Step(op: op, route: route, animated: true, slot: slot, presentation: style.map { PresentationOptions(style: $0) }, screen: screen)
    }
    private func remove(_ op: StepOperation, _ route: RouteID) -> Step { Step(op: op, route: route, animated: true) }

    @Test("the model accepts the engine's answers for the doc's worked example")
    func acceptsWorkedExample() throws {
        let navigator = TestTrees.posNavigator
        let there = try navigator.navigate(from: ["tabBar", "splitContainer"], .to, "orderSummary")
        try follow(TestTrees.pos, from: ["tabBar", "splitContainer"], there.steps, stack: strings(there.stack), target: "orderSummary")
        let back = try navigator.navigate(from: strings(there.stack), .to, "menu")
        try follow(TestTrees.pos, from: strings(there.stack), back.steps, stack: strings(back.stack), target: "menu")
    }

    @Test("a missing dismiss fails: popTo cannot remove a presented entry")
    func missingDismiss() {
        let from = ["app", "home", "feed", "post", "comments", "share"]
        #expect(throws: ScreenModel.Violation.self) {
            try follow(TestTrees.deep, from: from, [remove(.popTo, "feed")], stack: ["app", "home", "feed"], target: "feed")
        }
        // With the dismiss, the same list is legal.
        #expect(throws: Never.self) {
            try follow(TestTrees.deep, from: from, [remove(.dismiss, "share"), remove(.popTo, "feed")], stack: ["app", "home", "feed"], target: "feed")
        }
    }

    @Test("a pop followed by a push of the same route fails: the step is undone")
    func popThenPush() {
        let from = ["app", "home", "feed", "post"]
        #expect(throws: ScreenModel.Violation.self) {
            try follow(TestTrees.deep, from: from, [remove(.pop, "post"), show(.push, "post")], stack: from, target: "post")
        }
    }

    @Test("showing then removing a screen fails")
    func showThenRemove() {
        #expect(throws: ScreenModel.Violation.self) {
            try follow(
                TestTrees.deep, from: ["app", "home"], [show(.push, "feed"), show(.push, "post"), remove(.pop, "post")],
                stack: ["app", "home", "feed"], target: "feed")
        }
    }

    @Test("illegal steps fail: a push onto a covered parent, a tab of a covered container, an unknown dismiss, a slot mismatch")
    func illegalSteps() {
        let deep = TestTrees.deep
        let pushed = ["app", "home", "feed", "post"]
        #expect(throws: ScreenModel.Violation.self) {
            try follow(deep, from: pushed, [show(.push, "stats")], stack: ["app", "home", "feed", "stats", "daily"], target: "stats")
        }
        #expect(throws: ScreenModel.Violation.self) {
            try follow(deep, from: pushed, [show(.selectTab, "settings")], stack: ["app", "settings"], target: "settings")
        }
        #expect(throws: ScreenModel.Violation.self) {
            try follow(deep, from: pushed, [remove(.dismiss, "post")], stack: ["app", "home", "feed"], target: "feed")
        }
        #expect(throws: ScreenModel.Violation.self) {
            try follow(deep, from: ["app", "library"], [show(.embed, "albumList", slot: "sidebar")], stack: ["app", "library", "albumList"], target: "albumList")
        }
    }

    @Test("ending anywhere but the answer's stack fails, as does a container shown without its contents")
    func wrongEnd() {
        let deep = TestTrees.deep
        // One push short of the target.
        #expect(throws: ScreenModel.Violation.self) {
            try follow(deep, from: ["app", "home"], [show(.push, "feed")], stack: ["app", "home", "feed", "post"], target: "post")
        }
        // The tab container presented without selecting a tab.
        #expect(throws: ScreenModel.Violation.self) {
            try follow(deep, from: ["app", "settings"], [show(.present, "editor", style: .modal)], stack: ["app", "settings", "editor"], target: "editor")
        }
        // The player presented without its slots filled.
        #expect(throws: ScreenModel.Violation.self) {
            try follow(deep, from: ["app", "library"], [show(.present, "player", style: .modal)], stack: ["app", "library", "player"], target: "player")
        }
    }
}

extension ClientCapabilities {
    var label: String {
        guard let operations else { return "a client that does everything" }
        return "a client without " + Set(StepOperation.allCases).subtracting(operations).map(\.rawValue).sorted().joined(separator: ",")
    }
}
