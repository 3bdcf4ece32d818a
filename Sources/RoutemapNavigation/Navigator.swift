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
    /// Where launch leaves a client: the root and its chain of selected first tabs (empty
    /// without a root).
    public let launchStack: NavigationStack
    /// What showing each route needs about its children, by route.
    let layouts: [RouteID: ChildLayout]

    /// The registry must have no `problems()`; the navigator trusts its shape.
    public init(registry: RouteRegistry<Context>, deriveInput: InputDeriver? = nil) {
        self.registry = registry
        self.deriveInput = deriveInput
        root = registry.root
        launchStack = registry.launchStack ?? NavigationStack([])
        var layouts: [RouteID: ChildLayout] = [:]
        for route in registry.routes {
            let tabs = registry.children(of: route.id).filter { $0.presentation == .tab }.map { Tab(route: $0.id, title: $0.title) }
            layouts[route.id] = ChildLayout(
                tabs: tabs.isEmpty ? nil : tabs,
                firstInSlots: route.slots.map { registry.routes(inSlot: $0, of: route.id).first?.id })
        }
        self.layouts = layouts
    }

    /// The whole initial UI: `setRoot` the root, then for every route on screen its first tab
    /// (`selectTab`) and the first route of each slot (`embed`), depth first. Pushed and
    /// presented routes are not part of the initial UI. The stack is the root and its chain of
    /// selected first tabs.
    public func launch(inputs: RouteInputs, context: Context, client: ClientCapabilities = .everything) throws -> Navigation {
        guard let root else { throw NavigationError.noRoot }
        var walk = Walk(navigator: self, context: context, client: client, inputs: inputs, animated: false)
        try walk.show(StackEntry(root.id), continuingTo: nil)
        try walk.checkOperations()
        return Navigation(steps: walk.steps, stack: launchStack)
    }

    /// The steps from the client's stack to where the request leads, and the stack after them.
    public func navigate(
        _ request: NavigationRequest, context: Context, client: ClientCapabilities = .everything, animated: Bool = true
    ) throws -> Navigation {
        let from = request.from.entries
        try validate(request.from)
        var target: [StackEntry]
        var allowedInputs: Set<String> = []
        switch request.mode {
        case .to:
            guard let id = request.target else { throw NavigationError.targetRequired }
            target = try path(from: from, to: id)
        case .parent:
            target = Array(from.dropLast())
            // A tab on top goes with its container, which would otherwise list it again (a stack
            // ending at a tab container lists its selected tab): one hop up leaves the container.
            var left = from.last
            while let entry = left, !entry.openedAsSub, registry[entry.route]?.presentation == .tab, !target.isEmpty {
                left = target.removeLast()
            }
            guard !target.isEmpty else { throw NavigationError.noParent }
        case .sub:
            guard let id = request.target else { throw NavigationError.targetRequired }
            let route = try self.route(id)
            guard route.presentation != .root else { throw NavigationError.rootAsSub }
            target = from + [StackEntry(id, openedAsSub: true)]
        }
        for entry in target { allowedInputs.formUnion(try self.route(entry.route).requires) }
        let inputs = request.input.filter { allowedInputs.contains($0.key) }

        var walk = Walk(navigator: self, context: context, client: client, inputs: inputs, animated: animated)
        if target == from {
            try walk.refresh(from.last!)
        } else {
            let common = zip(from, target).prefix { $0 == $1 }.count
            try walk.remove(from, above: common)
            var parentOnScreen = true
            for index in common..<target.count {
                let next = index + 1 < target.count ? target[index + 1] : nil
                parentOnScreen = try walk.show(target[index], continuingTo: next, parentOnScreen: parentOnScreen)
            }
            target = extendWithTabs(target, from: from)
        }
        try walk.checkOperations()
        return Navigation(steps: walk.steps, stack: NavigationStack(target))
    }

    /// New content for a route already on screen, shown without a transition.
    public func replace(_ id: RouteID, inputs: RouteInputs, context: Context, client: ClientCapabilities = .everything) throws
        -> Step
    {
        var walk = Walk(navigator: self, context: context, client: client, inputs: inputs, animated: false)
        try walk.replace(try route(id))
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

    /// The stack `to` leads to: inside the subtree of the highest `sub` entry that holds the
    /// target, else the target's registered path from the root.
    private func path(from: [StackEntry], to id: RouteID) throws -> [StackEntry] {
        let targetPath = try registryPath(to: id)
        if let index = from.indices.last(where: { from[$0].openedAsSub && registry.isAncestor(from[$0].route, of: id) }) {
            let below = targetPath.drop { $0 != from[index].route }.dropFirst()
            return Array(from[...index]) + below.map { StackEntry($0) }
        }
        return targetPath.map { StackEntry($0) }
    }

    private func registryPath(to id: RouteID) throws -> [RouteID] {
        _ = try route(id)
        guard let path = registry.path(to: id) else { throw NavigationError.unknownRoute(id) }
        return path.map(\.id)
    }

    /// A stack ending at a tab container also names its selected tab: the one the client had
    /// when the container stayed on screen, the first tab when the walk just showed it.
    private func extendWithTabs(_ target: [StackEntry], from: [StackEntry]) -> [StackEntry] {
        guard let last = target.last else { return target }
        if from.starts(with: target) {
            return target + from[target.count...].prefix { !$0.openedAsSub && registry[$0.route]?.presentation == .tab }
        }
        return target + registry.firstTabChain(below: last.route)
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
        let content = try registry.builder(for: shown.id).map { try $0(inputs, context) } ?? ScreenContent()
        return Screen(shown, content, renderer: renderer)
    }

    private static func noScreen(_ route: Route) -> String {
        "the client has no native \(route.screenType) screen, and route \(route.id) has no declarative rendering or fallback it can show"
    }
}

extension Screen {
    /// The screen of `route` from its builder's content; a declarative screen's payload carries
    /// the component tree in `components`.
    fileprivate init(_ route: Route, _ content: ScreenContent, renderer: Renderer) {
        var payload = content.payload
        if renderer == .declarative, let components = content.components, case .object(var object) = payload {
            object["components"] = .array(components.map(\.json))
            payload = .object(object)
        }
        self.init(
            type: route.screenType, renderer: renderer, title: route.title, payload: payload, actions: content.actions,
            inputs: content.inputs)
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
