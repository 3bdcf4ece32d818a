/// Turns the route registry into the steps a client performs: the initial UI (`launch`), a walk
/// between any two screens (`navigate`), and new content for a screen on display (`replace`).
///
/// Every step that shows a route carries its screen, built by the route's payload builder from
/// the inputs and the application's per-request `Context`, and degraded to what the client
/// says it can do (docs/navigation.md has the rules and the degradation table).
public struct Navigator<Context>: Sendable {
    /// Supplies an input a client did not send, when the server can do so unambiguously (the
    /// device's current bill); `nil` when it cannot.
    public typealias InputDeriver = @Sendable (_ name: String, _ context: Context) throws -> String?

    public let registry: RouteRegistry<Context>
    let deriveInput: InputDeriver?
    /// What every launch and walk asks of the registry, worked out once: the registry never
    /// changes under a navigator, and answering from it each time copied and hashed routes.
    let root: Route?
    /// The root and its chain of selected first tabs, no inputs known (empty without a root):
    /// the root's screen with no embedded route listed, the stack `GET /v1/resolve` assumes
    /// when the client sends none.
    public let rootStack: NavigationStack
    /// What showing each route needs about its children, by route.
    let layouts: [RouteID: ChildLayout]

    /// The registry must have no `problems()`; the navigator trusts its shape.
    public init(registry: RouteRegistry<Context>, deriveInput: InputDeriver? = nil) {
        self.registry = registry
        self.deriveInput = deriveInput
        root = registry.root
        rootStack = registry.rootStack ?? NavigationStack([])
        var layouts: [RouteID: ChildLayout] = [:]
        for route in registry.routes {
            let tabs = registry.children(of: route.id).filter { $0.presentation == .tab }.map { Tab(route: $0.id, title: $0.title) }
            layouts[route.id] = ChildLayout(
                tabs: tabs.isEmpty ? nil : tabs,
                firstInSlots: route.slots.map { registry.routes(inSlot: $0, of: route.id).first?.id })
        }
        self.layouts = layouts
    }

    /// The whole initial UI: `setRoot` the root, then for every route shown its first tab
    /// (`selectTab`) and the first route of each slot (`embed`), depth first. Pushed and
    /// presented routes are not part of the initial UI. `inputs` are used wherever a screen
    /// needs one; the stack ends at the last route the initial contents showed.
    public func launch(inputs: RouteInputs, context: Context, client: ClientCapabilities = .everything) throws -> Navigation {
        guard let root else { throw NavigationError.noRoot }
        var walk = Walk(navigator: self, context: context, client: client, fallbacks: inputs, animated: false, stack: [])
        try walk.show([StackEntry(root.id)], parentOnDisplay: false)
        try walk.checkOperations()
        return Navigation(steps: walk.steps, stack: NavigationStack(walk.stack))
    }

    /// The steps from the client's stack to where the request leads, and the stack after them
    /// (docs/navigation.md, "Walks").
    public func navigate(
        _ request: NavigationRequest, context: Context, client: ClientCapabilities = .everything, animated: Bool = true
    ) throws -> Navigation {
        try validate(request.from)
        let from = request.from.entries
        var walk = Walk(navigator: self, context: context, client: client, requested: request.input, animated: animated, stack: from)
        switch request.mode {
        case .to:
            guard let id = request.target else { throw NavigationError.targetRequired }
            let target = try path(from: from, to: id, requested: request.input)
            let common = zip(from, target).prefix { inCommon($0, $1, requested: request.input) }.count
            if common == target.count {
                // The target stays as it is: so do the tabs and embedded routes listed above it.
                let kept = common + from[common...].prefix { !$0.openedAsSub && !startsScreen($0) }.count
                if kept < from.count {
                    walk.remove(above: kept)
                } else if common == from.count {
                    try walk.refresh()
                }
            } else if common < from.count, from[common].route == target[common].route, from[common].openedAsSub == target[common].openedAsSub {
                // The same screen showing something else (or something the stack did not say):
                // everything above it goes, and it gets new content.
                walk.remove(above: common + 1)
                try walk.replace(target[common].route, requested: true)
                try walk.show(target[(common + 1)...], parentOnDisplay: true)
            } else {
                walk.remove(above: common)
                try walk.show(target[common...], parentOnDisplay: true)
            }
        case .parent:
            // The top screen leaves; the root's screen has no parent.
            let start = from.lastIndex(where: startsScreen) ?? 0
            guard start > 0 else { throw NavigationError.noParent }
            walk.remove(above: start)
        case .sub:
            guard let id = request.target else { throw NavigationError.targetRequired }
            let route = try self.route(id)
            guard route.presentation != .root else { throw NavigationError.rootAsSub }
            try walk.show([StackEntry(id, openedAsSub: true)], parentOnDisplay: false)
        }
        try walk.checkOperations()
        return Navigation(steps: walk.steps, stack: NavigationStack(walk.stack))
    }

    /// New content for a route on display, shown without a transition. `inputs` supply what
    /// its screen needs (a missing one is derived).
    public func replace(_ id: RouteID, inputs: RouteInputs, context: Context, client: ClientCapabilities = .everything) throws
        -> Step
    {
        var walk = Walk(navigator: self, context: context, client: client, requested: inputs, animated: false, stack: [])
        try walk.replaceOnDisplay(id)
        try walk.checkOperations()
        return walk.steps[0]
    }

    /// Checks a client's stack: it starts at the root, and every entry is a child of the one
    /// below it, or was opened with `sub` (any route but the root).
    public func validate(_ stack: NavigationStack) throws {
        guard let first = stack.entries.first else { throw NavigationError.invalidStack("the stack is empty") }
        for entry in stack.entries { _ = try route(entry.route) }
        guard registry[first.route]?.presentation == .root, !first.openedAsSub else {
            throw NavigationError.invalidStack("the stack starts with \(first), not the root \(root?.id.rawValue ?? "")")
        }
        for (below, entry) in zip(stack.entries, stack.entries.dropFirst()) {
            let route = try route(entry.route)
            if entry.openedAsSub {
                guard route.presentation != .root else { throw NavigationError.invalidStack("the root cannot be opened with sub") }
            } else if route.parent != below.route {
                throw NavigationError.invalidStack("\(entry) is not a child of \(below.route)")
            }
        }
    }

    /// The route with `id`, or `unknownRoute`.
    public func route(_ id: RouteID) throws -> Route {
        guard let route = registry[id] else { throw NavigationError.unknownRoute(id) }
        return route
    }

    /// The target's path `to` leads to: inside the subtree of the highest `sub` entry that holds
    /// the target and stays (it and every entry below it are in common: the walk never opens a
    /// `sub` entry again), as `from` has it up to that entry; else the target's registered
    /// path from the root. Entries from `from` keep their inputs; the others have none yet.
    private func path(from: [StackEntry], to id: RouteID, requested: RouteInputs) throws -> [StackEntry] {
        _ = try route(id)
        guard let targetPath = registry.path(to: id)?.map(\.id) else { throw NavigationError.unknownRoute(id) }
        let stays = from.indices.first { !inCommon(from[$0], from[$0], requested: requested) } ?? from.count
        if let index = from.indices.last(where: { $0 < stays && from[$0].openedAsSub && registry.isAncestor(from[$0].route, of: id) }) {
            let below = targetPath.drop { $0 != from[index].route }.dropFirst()
            return Array(from[...index]) + below.map { StackEntry($0) }
        }
        return targetPath.map { StackEntry($0) }
    }

    /// Whether an entry of `from` stays as the target's entry at its position: the same route,
    /// both or neither `sub`, and for every input the route requires a value the request does
    /// not name differently.
    private func inCommon(_ entry: StackEntry, _ target: StackEntry, requested: RouteInputs) -> Bool {
        guard entry.route == target.route, entry.openedAsSub == target.openedAsSub, let route = registry[entry.route] else { return false }
        return route.requires.allSatisfy { name in
            guard let value = entry.inputs[name] else { return false }
            return requested[name].map { $0 == value } ?? true
        }
    }

    /// Whether `entry` starts a screen of the stack: the root, or pushed, presented or opened
    /// with `sub`. Tabs and embedded routes belong to the screen below them.
    func startsScreen(_ entry: StackEntry) -> Bool {
        if entry.openedAsSub { return true }
        switch registry[entry.route]?.presentation {
        case .tab?, .embed?: return false
        default: return true
        }
    }
}

import RoutemapJSON

extension Navigator {
    /// How `entry` is shown: its route's presentation, or for a `sub` entry over the route
    /// below it, `push`/`present` as declared and otherwise a modal in a navigation container.
    func presentation(of entry: StackEntry) -> Presentation {
        guard let route = registry[entry.route] else { return .push }
        guard entry.openedAsSub else { return route.presentation }
        switch route.presentation {
        case .push, .present: return route.presentation
        case .root, .tab, .embed: return .present(PresentationOptions(style: .modal, inNavigationContainer: true))
        }
    }

    /// The route whose screen `client` gets for `route`, and how it is drawn: the route's
    /// native screen, else its declarative rendering, else its fallback's (recursively);
    /// `nil` when the client can draw none of them.
    public func rendering(of route: Route, for client: ClientCapabilities) -> (route: Route, renderer: Renderer)? {
        var candidate = route
        // A chain of fallbacks without a repeat visits each route at most once: one more step
        // than there are routes means a cycle. (Counting costs less than a set of the routes seen.)
        for _ in 0...registry.order.count {
            if candidate.renderer == .declarative { return (candidate, .declarative) }
            if client.drawsNatively(candidate) { return (candidate, .native) }
            if candidate.offersDeclarative { return (candidate, .declarative) }
            guard let fallback = candidate.fallback, let next = registry[fallback] else { return nil }
            candidate = next
        }
        return nil
    }

    /// Fails with `unsupportedClient` unless `client` can draw every one of `routes` and
    /// perform every one of `operations` (after degrading): endpoints that change data call it
    /// first, so a client that could not follow the answer changes nothing.
    public func verify(_ client: ClientCapabilities, canShow routes: [RouteID], performing operations: Set<StepOperation>) throws {
        for id in routes {
            let route = try route(id)
            guard rendering(of: route, for: client) != nil else { throw NavigationError.unsupportedClient(Self.noScreen(route)) }
        }
        for operation in operations where !client.performs(client.operation(operation)) {
            throw NavigationError.unsupportedClient("the client does not perform \(operation.rawValue), which this navigation needs")
        }
    }

    /// The screen of `route` for this client, built by the builder of the route `rendering` picks.
    func screen(for route: Route, inputs: RouteInputs, context: Context, client: ClientCapabilities) throws -> Screen {
        guard let (shown, renderer) = rendering(of: route, for: client) else {
            throw NavigationError.unsupportedClient(Self.noScreen(route))
        }
        // The route's own guard, whichever screen the client draws for it.
        if let routeGuard = route.routeGuard {
            guard let holds = registry.guardPredicate(for: route.id), try holds(inputs, context) else {
                throw NavigationError.guardFailed(route: route.id, routeGuard)
            }
        }
        let content = try registry.builder(for: shown.id).map { try $0(inputs, context) } ?? ScreenContent()
        // The screen's inputs are what it was shown with and what it provides, as the route declares.
        var screenInputs = inputs.filter { route.requires.contains($0.key) }
        for name in route.provides { if let value = content.inputs[name] ?? inputs[name] { screenInputs[name] = value } }
        return Screen(shown, content, renderer: renderer, inputs: screenInputs)
    }

    private static func noScreen(_ route: Route) -> String {
        "the client has no native \(route.screenType) screen, and route \(route.id) has no declarative rendering or fallback it can show"
    }
}

extension Screen {
    /// The screen of `route` from its builder's content; a declarative screen's payload carries
    /// the component tree in `components` (built here, so only for a declarative screen).
    fileprivate init(_ route: Route, _ content: ScreenContent, renderer: Renderer, inputs: RouteInputs) {
        var payload = content.payload
        if renderer == .declarative, let components = content.components, var object = payload.objectMembers {
            object["components"] = .array(components().map(\.json))
            payload = .object(object)
        }
        self.init(
            type: route.screenType, renderer: renderer, title: route.title, payload: payload, actions: content.actions,
            inputs: inputs)
    }
}

/// A route's children as showing the route needs them, worked out from the registry once.
struct ChildLayout: Sendable {
    /// The tabs, in order, that a `setRoot` of the route lists; `nil` when it has none.
    var tabs: [Tab]?
    /// The first route embedded in each of the route's slots, in the order of its `slots`;
    /// `nil` for a slot nothing is embedded in.
    var firstInSlots: [RouteID?]
}

extension JSON {
    /// The members of an object, whether built or already encoded (a cached payload).
    fileprivate var objectMembers: JSONObject? {
        switch self {
        case .object(let object): object
        case .fragment(let fragment): fragment.value.objectMembers
        default: nil
        }
    }
}
