/// The steps of one navigation as they are produced: removals from the top of the client's
/// stack, then the routes shown on the way to the target, each screen built on the way and
/// every step degraded to what the client can do.
struct Walk<Context> {
    let navigator: Navigator<Context>
    let context: Context
    let client: ClientCapabilities
    /// The inputs for the screens shown; grows as missing ones are derived.
    var inputs: RouteInputs
    /// The inputs the request itself carried (not derived ones). Kept as the dictionary the
    /// request brought (no copy): only its keys are looked at.
    let explicitInputs: RouteInputs
    let animated: Bool
    private(set) var steps: [Step] = []

    init(navigator: Navigator<Context>, context: Context, client: ClientCapabilities, inputs: RouteInputs, animated: Bool) {
        self.navigator = navigator
        self.context = context
        self.client = client
        self.inputs = inputs
        self.explicitInputs = inputs
        self.animated = animated
    }

    private var registry: RouteRegistry<Context> { navigator.registry }

    // MARK: Removing

    /// Removes `stack[common...]`, top first: one `dismiss` for the lowest presented entry
    /// (which takes everything above it), then one `pop` (only the top screen is left) or
    /// `popTo` for the pushed ones.
    /// Tabs and embedded routes need no step: the routes shown next replace them.
    ///
    /// A client finds the entry a `dismiss` names from the top, so when the lowest presented
    /// entry's route is presented again higher up (opened with `sub`), that one is dismissed first.
    mutating func remove(_ stack: [StackEntry], above common: Int) throws {
        var current = stack
        while let presented = (common..<current.count).first(where: { isPresented(current[$0]) }) {
            let route = current[presented].route
            let named = (presented..<current.count).last { current[$0].route == route && isPresented(current[$0]) }!
            steps.append(Step(op: .dismiss, route: route, animated: animated))
            current.removeSubrange(named...)
            if named == presented { break }
        }
        guard let pushed = (common..<current.count).first(where: { isPushed(current[$0]) }) else { return }
        // A `popTo` names the topmost entry of its route: when the route below the lowest
        // pushed entry is also higher up (opened with `sub`), the pushed entries go one by one.
        let below = current[pushed - 1].route
        if !current[(pushed + 1)...].contains(where: isPushed) {
            // Only the top screen is left: the pushed entry and its own tabs and embedded routes.
            steps.append(Step(op: .pop, route: current[pushed].route, animated: animated))
        } else if client.performs(.popTo), !current[pushed...].contains(where: { $0.route == below }) {
            steps.append(Step(op: .popTo, route: below, animated: animated))
        } else {
            for entry in current[pushed...].reversed() where isPushed(entry) {
                steps.append(Step(op: .pop, route: entry.route, animated: animated))
            }
        }
    }

    // MARK: Showing

    /// Shows `entry` over its parent, then what a newly shown route holds (its first tab, the
    /// first route of each slot) except where `next` continues the walk. Returns whether
    /// `entry` was already on screen: an embedded route, alone in its slot, of a container on
    /// screen.
    @discardableResult
    mutating func show(_ entry: StackEntry, continuingTo next: StackEntry?, parentOnScreen: Bool = false) throws -> Bool {
        let route = try navigator.route(entry.route)
        let presentation = navigator.presentation(of: entry)
        if case .embed(let slot) = presentation, parentOnScreen, let parent = route.parent,
            registry.routes(inSlot: slot, of: parent).count == 1
        {
            // On screen already; new content only when the request names inputs for it.
            if route.requires.contains(where: { explicitInputs[$0] != nil }) { try replace(route) }
            return true
        }
        let screen = try screen(for: route)
        switch presentation {
        case .root: append(.setRoot, route, screen, animated: false)
        case .tab: append(.selectTab, route, screen)
        case .embed(let slot): append(.embed, route, screen, slot: slot)
        case .push: append(.push, route, screen)
        case .present(let options): append(.present, route, screen, presentation: degraded(options))
        }
        try showInitialChildren(of: route, except: next)
        return false
    }

    /// A fresh payload for the route on top (`refresh`, or `replace` for clients without it).
    mutating func refresh(_ entry: StackEntry) throws {
        let route = try navigator.route(entry.route)
        steps.append(
            Step(op: client.operation(.refresh), route: route.id, animated: false, screen: try screen(for: route)))
    }

    /// New content for `route`, on screen already.
    mutating func replace(_ route: Route) throws {
        steps.append(Step(op: .replace, route: route.id, animated: false, screen: try screen(for: route)))
    }

    /// Fails when a step is one the client does not perform even after degrading.
    func checkOperations() throws {
        for step in steps where !client.performs(step.op) {
            throw NavigationError.unsupportedClient("the client does not perform \(step.op.rawValue), which this navigation needs")
        }
    }

    // MARK: Helpers

    private mutating func append(
        _ op: StepOperation, _ route: Route, _ screen: Screen, animated: Bool? = nil, slot: String? = nil, presentation: PresentationOptions? = nil
    ) {
        steps.append(
            Step(
                op: op, route: route.id, animated: animated ?? self.animated, slot: slot, tabs: navigator.layouts[route.id]?.tabs,
                presentation: presentation, screen: screen))
    }

    /// Selects the first tab and embeds the first route of each slot, depth first, skipping the
    /// tab or slot that `next` goes into.
    private mutating func showInitialChildren(of route: Route, except next: StackEntry?) throws {
        guard let layout = navigator.layouts[route.id] else { return }
        let nextPresentation = next.flatMap { $0.openedAsSub ? nil : registry[$0.route]?.presentation }
        if let firstTab = layout.tabs?.first, nextPresentation != .tab {
            try show(StackEntry(firstTab.route), continuingTo: nil)
        }
        for (slot, first) in zip(route.slots, layout.firstInSlots) where nextPresentation != .embed(slot: slot) {
            if let first { try show(StackEntry(first), continuingTo: nil) }
        }
    }

    private mutating func screen(for route: Route) throws -> Screen {
        for name in route.requires where inputs[name] == nil {
            guard let value = try navigator.deriveInput?(name, context) else {
                throw NavigationError.missingInput(name: name, route: route.id)
            }
            inputs[name] = value
        }
        return try navigator.screen(for: route, inputs: inputs, context: context, client: client)
    }

    private func degraded(_ options: PresentationOptions) -> PresentationOptions {
        var options = options
        if options.style == .popover && !client.shows(.popover) { options.style = .sheet }
        if options.style == .sheet && !client.shows(.sheet) { options.style = .modal }
        if options.style == .fullScreen && !client.shows(.fullScreen) { options.style = .modal }
        if options.style != .popover { options.anchor = nil }
        return options
    }

    private func isPresented(_ entry: StackEntry) -> Bool {
        if case .present = navigator.presentation(of: entry) { return true }
        return false
    }

    private func isPushed(_ entry: StackEntry) -> Bool { navigator.presentation(of: entry) == .push }
}
