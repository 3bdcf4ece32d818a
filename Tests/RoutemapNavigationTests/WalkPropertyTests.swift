import Foundation
import RoutemapNavigation
import RoutemapTestSupport
import Testing

/// Random walks checked against `ScreenModel`, the client's screen stack as docs/navigation.md
/// describes it. Every case is reproducible from its seed, which each failure prints; set
/// `ROUTEMAP_WALK_SEED` to run one seed only.
@Suite("Walk properties")
struct WalkPropertyTests {
    static let trees: [(name: String, registry: RouteRegistry<String>)] = [
        ("deep", TestTrees.deep), ("pos", TestTrees.pos), ("trivia", TestTrees.trivia),
    ]

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

    @Test("random (reachable stack, target, mode, inputs): every step legal, the steps give exactly the answer's stack, nothing undone")
    func randomPairs() {
        var failures = 0
        for seed in Self.seeds where failures < Self.failureLimit {
            var random = SeededRandom(seed: seed)
            for (name, registry) in Self.trees {
                let navigator = Navigator(registry: registry, deriveInput: TestTrees.deriveAll)
                for _ in 0..<12 {
                    let from = randomStack(registry, &random)
                    let request = randomRequest(registry, from: from, &random)
                    let client = Self.clients.randomElement(using: &random)!
                    var model = ScreenModel(registry: registry, stack: from)
                    if let failure = check(navigator, &model, request, client: client) {
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
                do {
                    let launch = try navigator.launch(inputs: [:], context: "", client: client)
                    try model.follow(launch, mode: .to, target: registry.root?.id)
                } catch {
                    Issue.record("seed \(seed), \(name) tree: launch: \(error)")
                    failures += 1
                    continue
                }
                for _ in 0..<25 {
                    let request = randomRequest(registry, from: model.stack, &random)
                    if let failure = check(navigator, &model, request, client: client) {
                        Issue.record("seed \(seed), \(name) tree, session: \(failure)")
                        failures += 1
                        break
                    }
                }
            }
        }
    }

    // MARK: Checking one navigation

    /// Navigates, follows the steps in the model (which must end exactly at the answer's
    /// stack) and checks the answer; the failure, or `nil`. After a `sub`, also checks that
    /// `parent` with the returned stack goes back to `from`.
    func check(_ navigator: Navigator<String>, _ model: inout ScreenModel, _ request: NavigationRequest, client: ClientCapabilities) -> String? {
        let from = request.from.entries
        let label =
            "\(request.mode.rawValue) \(request.target?.rawValue ?? "")\(request.input.isEmpty ? "" : " \(request.input)") from \(request.from) for \(client.label)"
        let navigation: Navigation
        do {
            navigation = try navigator.navigate(request, context: "", client: client)
        } catch let error as NavigationError {
            return expectedError(error, registry: navigator.registry, request) ? nil : "\(label): unexpected \(error)"
        } catch {
            return "\(label): unexpected \(error)"
        }
        let answer = "\(label) → \(describe(navigation.steps)) stack \(navigation.stack)"
        do {
            try model.follow(navigation, mode: request.mode, target: request.target)
            try checkAnswer(navigation, registry: navigator.registry, request, client: client)
            model.reset(to: navigation.stack.entries)
        } catch {
            return "\(answer): \(error)"
        }
        if request.mode == .sub {
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

    /// The errors a random request may legitimately get: `parent` from the root's screen (the
    /// root and the tabs and embedded routes listed above it), `sub` of the root.
    private func expectedError(_ error: NavigationError, registry: RouteRegistry<String>, _ request: NavigationRequest) -> Bool {
        switch (error, request.mode) {
        case (.noParent, .parent):
            return request.from.entries.dropFirst().allSatisfy { !$0.openedAsSub && isTabOrEmbedded(registry, $0) }
        case (.rootAsSub, .sub):
            return request.target == registry.root?.id
        default:
            return false
        }
    }

    private func isTabOrEmbedded(_ registry: RouteRegistry<String>, _ entry: StackEntry) -> Bool {
        switch registry[entry.route]?.presentation {
        case .tab?, .embed?: true
        default: false
        }
    }

    /// What the answer must say, by mode (docs/navigation.md, "Walks"), and what its steps carry.
    private func checkAnswer(
        _ navigation: Navigation, registry: RouteRegistry<String>, _ request: NavigationRequest, client: ClientCapabilities
    ) throws {
        let from = request.from.entries
        let stack = navigation.stack.entries
        func fail(_ text: String) -> ScreenModel.Violation { ScreenModel.Violation(text) }
        /// Tabs and embedded routes, each a child of the entry below it.
        func focusChain(_ entries: ArraySlice<StackEntry>, below container: RouteID) -> Bool {
            var parent = container
            for entry in entries {
                guard !entry.openedAsSub, isTabOrEmbedded(registry, entry), registry[entry.route]?.parent == parent else { return false }
                parent = entry.route
            }
            return true
        }
        switch request.mode {
        case .to:
            let target = request.target!
            let expected = targetPath(registry, from: from, to: target, input: request.input)
            let routes = stack.prefix(expected.count).map { StackEntry($0.route, openedAsSub: $0.openedAsSub) }
            guard routes == expected, focusChain(stack[expected.count...], below: target) else {
                throw fail("the stack should be \(NavigationStack(expected)) and the focus inside it")
            }
            // Every screen of the target path shows what the request asked for; those in common keep theirs.
            let common = zip(from, expected).prefix { inCommon(registry, $0, $1, request.input) }.count
            // A target stack equal to `from` (the target in common, the same focus above it).
            let unchanged = common == expected.count && stack.map(\.route) == from.map(\.route)
            for (index, entry) in stack.prefix(expected.count).enumerated() {
                for name in registry[entry.route]!.requires {
                    guard let value = entry.inputs[name] else { throw fail("\(entry) shows no \(name)") }
                    if let asked = request.input[name], value != asked { throw fail("\(entry) shows \(name) \(value), the request asked \(asked)") }
                }
                // The refreshed top takes its new screen's inputs (rule 7), which leave out any
                // its route does not declare.
                let refreshed = unchanged && index == stack.count - 1 && entry.inputs == navigation.steps.first?.screen?.inputs
                if index < common, entry != from[index], !refreshed { throw fail("\(entry) is in common with \(from[index]) and should keep it") }
            }
            if unchanged {
                let expectedSteps = expected.count == from.count ? ["\(client.operation(.refresh).rawValue) \(target)"] : []
                guard describe(navigation.steps) == expectedSteps else { throw fail("to a target the stack already shows: \(expectedSteps)") }
            }
        case .parent:
            let start = from.lastIndex { $0.openedAsSub || !isTabOrEmbedded(registry, $0) }!
            guard stack == Array(from[..<start]), navigation.steps.count == 1 else {
                throw fail("parent should remove the top screen, from \(from[start]), with one step")
            }
        case .sub:
            let target = request.target!
            guard stack.count > from.count, Array(stack.prefix(from.count)) == from, stack[from.count].route == target,
                stack[from.count].openedAsSub, focusChain(stack[(from.count + 1)...], below: target)
            else {
                throw fail("sub should open sub:\(target) over \(NavigationStack(from)), then its initial contents")
            }
        }
        for step in navigation.steps {
            let showsScreen = ![StepOperation.dismiss, .pop, .popTo].contains(step.op)
            guard (step.screen != nil) == showsScreen else { throw fail("\(step.op) \(step.route) screen: \(step.screen == nil ? "missing" : "unexpected")") }
            guard client.performs(step.op) else { throw fail("\(step.op) is not something the client performs") }
            if let style = step.presentation?.style, style != .modal, !client.shows(style) { throw fail("\(style) is not shown by the client") }
            if let screen = step.screen, let route = registry[step.route] {
                let declared = Set(route.requires + route.provides)
                guard Set(screen.inputs.keys).isSubset(of: declared), route.requires.allSatisfy({ screen.inputs[$0] != nil }) else {
                    throw fail("\(step.op) \(step.route) has inputs \(screen.inputs), its route requires \(route.requires) and provides \(route.provides)")
                }
            }
        }
    }

    /// The `to` target's path as the doc defines it: the target's path from the root, or, when a
    /// `sub` entry of `from` is the target or one of its ancestors and stays (it and every entry
    /// below it in common; the topmost such entry), `from` up to that entry followed by the path
    /// below it. Routes and `sub` flags only.
    private func targetPath(_ registry: RouteRegistry<String>, from: [StackEntry], to target: RouteID, input: RouteInputs) -> [StackEntry] {
        let path = registry.path(to: target)!.map(\.id)
        let stays = from.prefix { inCommon(registry, $0, $0, input) }.count
        if let index = from.indices.last(where: { $0 < stays && from[$0].openedAsSub && path.contains(from[$0].route) }) {
            let below = path[(path.firstIndex(of: from[index].route)! + 1)...]
            return from[...index].map { StackEntry($0.route, openedAsSub: $0.openedAsSub) } + below.map { StackEntry($0) }
        }
        return path.map { StackEntry($0) }
    }

    /// The doc's "in common": the same route and `sub` flag, and every required input present
    /// and not named differently by the request.
    private func inCommon(_ registry: RouteRegistry<String>, _ entry: StackEntry, _ target: StackEntry, _ input: RouteInputs) -> Bool {
        guard entry.route == target.route, entry.openedAsSub == target.openedAsSub else { return false }
        return registry[entry.route]!.requires.allSatisfy { name in entry.inputs[name].map { value in input[name].map { $0 == value } ?? true } ?? false }
    }

    // MARK: Random input

    /// Values the random stacks and requests use for inputs, so entries and requests often agree.
    static let values = ["v1", "ready", "hidden"]

    /// A stack a client can hold: a route's path from the root; sometimes a `sub` entry over
    /// it and a path below that; and the focus (any tab or embedded route, recursively) inside
    /// a container on top. Each entry shows random values for its route's required inputs, or
    /// says nothing (unknown).
    func randomStack(_ registry: RouteRegistry<String>, _ random: inout SeededRandom) -> [StackEntry] {
        let routes = registry.routes
        var ids = registry.path(to: routes.randomElement(using: &random)!.id)!.map { ($0.id, false) }
        if Int.random(in: 0..<3, using: &random) == 0 {
            let opened = routes.filter { $0.presentation != .root }.randomElement(using: &random)!
            ids.append((opened.id, true))
            let below = routes.filter { $0.id != opened.id && registry.isAncestor(opened.id, of: $0.id) }
            if let deeper = below.randomElement(using: &random), Bool.random(using: &random) {
                let path = registry.path(to: deeper.id)!.map(\.id)
                ids += path[(path.firstIndex(of: opened.id)! + 1)...].map { ($0, false) }
            }
        }
        while let last = ids.last, Int.random(in: 0..<4, using: &random) > 0,
            let focus = registry.children(of: last.0).filter({ isTabOrEmbedded(registry, StackEntry($0.id)) }).randomElement(using: &random)
        {
            ids.append((focus.id, false))
        }
        // A tab container on top lists its selected tab.
        while let last = ids.last, let tab = registry.children(of: last.0).filter({ $0.presentation == .tab }).randomElement(using: &random) {
            ids.append((tab.id, false))
        }
        let known = Bool.random(using: &random)
        return ids.map { id, sub in
            var inputs: RouteInputs = [:]
            if known || Bool.random(using: &random) {
                for name in registry[id]!.requires { inputs[name] = Self.values.randomElement(using: &random)! }
            }
            // An input its route does not declare (a client's stack from before a deploy that
            // took it away): an entry in common keeps it like any other.
            if Int.random(in: 0..<6, using: &random) == 0 { inputs["retired"] = Self.values.randomElement(using: &random)! }
            return StackEntry(id, inputs: inputs, openedAsSub: sub)
        }
    }

    func randomRequest(_ registry: RouteRegistry<String>, from: [StackEntry], _ random: inout SeededRandom) -> NavigationRequest {
        let target = registry.routes.randomElement(using: &random)!
        var input: RouteInputs = [:]
        let names = registry.path(to: target.id)!.flatMap(\.requires)
        if let name = names.randomElement(using: &random), Int.random(in: 0..<3, using: &random) == 0 {
            input[name] = Self.values.randomElement(using: &random)!
        }
        let stack = NavigationStack(from)
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<6: return NavigationRequest(from: stack, mode: .to, target: target.id, input: input)
        case 6..<8: return NavigationRequest(from: stack, mode: .parent)
        default: return NavigationRequest(from: stack, mode: .sub, target: target.id, input: input)
        }
    }
}

@Suite("Screen model")
struct ScreenModelTests {
    private func follow(_ registry: RouteRegistry<String>, from: [String], _ steps: [Step], stack: [String], mode: NavigationMode = .to, target: RouteID?)
        throws
    {
        var model = ScreenModel(registry: registry, stack: NavigationStack(strings: from).entries)
        try model.follow(Navigation(steps: steps, stack: NavigationStack(strings: stack)), mode: mode, target: target)
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
