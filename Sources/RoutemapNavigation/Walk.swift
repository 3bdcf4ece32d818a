/// The steps of one navigation as they are produced, and the stack they leave: removals from the
/// top of the client's stack, then the routes shown on the way to the target, each screen built
/// on the way and every step degraded to what the client can do.
///
/// Every step changes `stack` as docs/navigation.md ("Applying steps to a stack") says a client
/// changes its own, so the answer's stack is exactly what a client following the steps ends with.
struct Walk<Context> {
    let navigator: Navigator<Context>
    let context: Context
    let client: ClientCapabilities
    /// The inputs the request named (`input`, or a deep link's placeholders): used only for the
    /// entries of the target stack.
    let requested: RouteInputs
    /// Inputs used where nothing else supplies one: those passed to launch, and those derived
    /// so far (each is derived at most once per walk).
    private var fallbacks: RouteInputs
    let animated: Bool
    private(set) var steps: [Step] = []
    /// The client's stack after the steps so far.
    private(set) var stack: [StackEntry]

    init(
        navigator: Navigator<Context>, context: Context, client: ClientCapabilities, requested: RouteInputs = [:],
        fallbacks: RouteInputs = [:], animated: Bool, stack: [StackEntry]
    ) {
        self.navigator = navigator
        self.context = context
        self.client = client
        self.requested = requested
        self.fallbacks = fallbacks
        self.animated = animated
        self.stack = stack
    }

    private var registry: RouteRegistry<Context> { navigator.registry }

    // MARK: Removing

    /// Removes the screens that start at or above `keep`, top first: one `dismiss` for the
    /// lowest presented entry (which takes everything above it), then one `pop` (only the top
    /// screen is left) or `popTo` for the pushed ones. Tabs and embedded entries above `keep`
    /// need no step: they stay listed until the next step that shows a screen lists another.
    ///
    /// A client finds the entry a `dismiss` names from the top, so when the lowest presented
    /// entry's route is presented again higher up (opened with `sub`), that one is dismissed first.
    mutating func remove(above keep: Int) {
        while let presented = (keep..<stack.count).first(where: { isPresented(stack[$0]) }) {
            let route = stack[presented].route
            let named = (presented..<stack.count).last { stack[$0].route == route && isPresented(stack[$0]) }!
            steps.append(Step(op: .dismiss, route: route, animated: animated))
            stack.removeSubrange(named...)
            if named == presented { break }
        }
        guard let pushed = (keep..<stack.count).first(where: { isPushed(stack[$0]) }) else { return }
        // A `popTo` names the topmost entry of its route: when the route below the lowest
        // pushed entry is also higher up (opened with `sub`), the pushed entries go one by one.
        let below = stack[pushed - 1].route
        if !stack[(pushed + 1)...].contains(where: isPushed) {
            // Only the top screen is left: the pushed entry and its own tabs and embedded routes.
            steps.append(Step(op: .pop, route: stack[pushed].route, animated: animated))
        } else if client.performs(.popTo), !stack[pushed...].contains(where: { $0.route == below }) {
            steps.append(Step(op: .popTo, route: below, animated: animated))
        } else {
            for entry in stack[pushed...].reversed() where isPushed(entry) {
                steps.append(Step(op: .pop, route: entry.route, animated: animated))
            }
        }
        stack.removeSubrange(pushed...)
    }

    // MARK: Showing

    /// Shows the entries of the target stack in order, each over the one before it (the first
    /// over the stack's top screen). `parentOnDisplay`: whether the first entry's parent was
    /// on display before this walk (kept or replaced), not shown by it.
    mutating func show(_ entries: ArraySlice<StackEntry>, parentOnDisplay: Bool) throws {
        var onDisplay = parentOnDisplay
        for index in entries.indices {
            let next = index + 1 < entries.endIndex ? entries[index + 1] : nil
            onDisplay = try show(entries[index], requested: true, continuingTo: next, parentOnDisplay: onDisplay)
        }
    }

    /// Shows `entry` (its route and `sub` flag; its inputs are worked out here) over its
    /// parent, then what a newly shown route holds (its first tab, the first route of each
    /// slot) except where `next` continues the walk. Returns whether `entry` was on display
    /// already: an embedded route, alone in its slot, of a container on display, which gets a
    /// `replace` (the stack did not say what it shows; the replace also lists it).
    @discardableResult
    private mutating func show(_ entry: StackEntry, requested: Bool, continuingTo next: StackEntry?, parentOnDisplay: Bool) throws
        -> Bool
    {
        let route = try navigator.route(entry.route)
        let presentation = navigator.presentation(of: entry)
        if !entry.openedAsSub, case .embed(let slot) = presentation, parentOnDisplay, let parent = route.parent,
            registry.routes(inSlot: slot, of: parent).count == 1
        {
            try replace(route.id, requested: requested)
            return true
        }
        // Where the entry goes: on the root's place, over everything (`sub`), or over its parent.
        let cut: Int
        if presentation == .root {
            cut = 0
        } else if entry.openedAsSub {
            cut = stack.count
        } else {
            cut = listing(of: route.parent)
        }
        let below = stack[..<cut]
        let screen = try screen(for: route, below: below, requested: requested, own: nil)
        switch presentation {
        case .root: append(.setRoot, route, screen, animated: false)
        case .tab: append(.selectTab, route, screen)
        case .embed(let slot): append(.embed, route, screen, slot: slot)
        case .push: append(.push, route, screen, sub: entry.openedAsSub)
        case .present(let options): append(.present, route, screen, sub: entry.openedAsSub, presentation: degraded(options))
        }
        stack = below + [StackEntry(route.id, inputs: screen.inputs, openedAsSub: entry.openedAsSub)]
        try showInitialChildren(of: route, except: next)
        return false
    }

    /// New content for `id`, on display: the entry the top screen lists for it, or else a route
    /// embedded in a container the top screen lists. Either way it becomes the stack's top.
    /// `requested`: whether the request's inputs apply (the route is on the target stack).
    mutating func replace(_ id: RouteID, requested: Bool) throws {
        let route = try navigator.route(id)
        let listed = (topScreenStart..<stack.count).last { stack[$0].route == id }
        let cut = listed ?? listing(of: route.parent)
        let screen = try screen(for: route, below: stack[..<cut], requested: requested, own: listed.map { stack[$0].inputs })
        steps.append(Step(op: .replace, route: id, animated: false, screen: screen))
        let sub = listed.map { stack[$0].openedAsSub } ?? false
        stack = stack[..<cut] + [StackEntry(id, inputs: screen.inputs, openedAsSub: sub)]
    }

    /// New content for `id` wherever the client has it on display, for an answer without a
    /// stack (the endpoints that change what a screen shows): the request's inputs are the
    /// screen's.
    mutating func replaceOnDisplay(_ id: RouteID) throws {
        let route = try navigator.route(id)
        let screen = try screen(for: route, below: [], requested: true, own: nil)
        steps.append(Step(op: .replace, route: id, animated: false, screen: screen))
    }

    /// A fresh screen for the stack's top, which keeps what it shows unless the request names
    /// other inputs (`refresh`, or `replace` for clients without it).
    mutating func refresh() throws {
        let top = stack.count - 1
        let route = try navigator.route(stack[top].route)
        let screen = try screen(for: route, below: stack[..<top], requested: true, own: stack[top].inputs)
        steps.append(Step(op: client.operation(.refresh), route: route.id, animated: false, screen: screen))
        stack[top].inputs = screen.inputs
    }

    /// Fails when a step is one the client does not perform even after degrading.
    func checkOperations() throws {
        for step in steps where !client.performs(step.op) {
            throw NavigationError.unsupportedClient("the client does not perform \(step.op.rawValue), which this navigation needs")
        }
    }

    // MARK: Helpers

    private mutating func append(
        _ op: StepOperation, _ route: Route, _ screen: Screen, animated: Bool? = nil, sub: Bool = false, slot: String? = nil,
        presentation: PresentationOptions? = nil
    ) {
        steps.append(
            Step(
                op: op, route: route.id, animated: animated ?? self.animated, sub: sub, slot: slot, tabs: navigator.layouts[route.id]?.tabs,
                presentation: presentation, screen: screen))
    }

    /// Selects the first tab and embeds the first route of each slot, depth first, skipping the
    /// tab or slot that `next` goes into (the walk shows that one after the others).
    private mutating func showInitialChildren(of route: Route, except next: StackEntry?) throws {
        guard let layout = navigator.layouts[route.id] else { return }
        let nextPresentation = next.flatMap { $0.openedAsSub ? nil : registry[$0.route]?.presentation }
        if let firstTab = layout.tabs?.first, nextPresentation != .tab {
            try show(StackEntry(firstTab.route), requested: false, continuingTo: nil, parentOnDisplay: false)
        }
        for (slot, first) in zip(route.slots, layout.firstInSlots) where nextPresentation != .embed(slot: slot) {
            if let first { try show(StackEntry(first), requested: false, continuingTo: nil, parentOnDisplay: false) }
        }
    }

    /// The screen of `route` over the entries `below`. Each input its route (or the fallback
    /// whose screen is drawn) requires comes from the request (when `requested`), else the
    /// entry's own inputs (`own`, an entry that stays), else the nearest entry below whose route
    /// provides it, else a fallback: launch's inputs or a derived one.
    private mutating func screen(for route: Route, below: ArraySlice<StackEntry>, requested: Bool, own: RouteInputs?) throws -> Screen {
        var names = route.requires
        if let shown = navigator.rendering(of: route, for: client)?.route, shown.id != route.id {
            names += shown.requires.filter { !names.contains($0) }
        }
        var inputs: RouteInputs = [:]
        for name in names {
            if requested, let value = self.requested[name] {
                inputs[name] = value
            } else if let value = own?[name] {
                inputs[name] = value
            } else if let value = below.last(where: { provides($0, name) })?.inputs[name] {
                inputs[name] = value
            } else if let value = fallbacks[name] {
                inputs[name] = value
            } else if let value = try navigator.deriveInput?(name, context) {
                fallbacks[name] = value
                inputs[name] = value
            } else {
                throw NavigationError.missingInput(name: name, route: route.id)
            }
        }
        return try navigator.screen(for: route, inputs: inputs, context: context, client: client)
    }

    private func provides(_ entry: StackEntry, _ name: String) -> Bool {
        entry.inputs[name] != nil && registry[entry.route]?.provides.contains(name) == true
    }

    /// Where the top screen starts: its root, pushed, presented or `sub` entry.
    private var topScreenStart: Int { stack.lastIndex(where: navigator.startsScreen) ?? 0 }

    /// The index just above the topmost listing of `parent`: where a child of it goes. The
    /// walk only shows a route over a listed parent; the top of the stack stands in otherwise.
    private func listing(of parent: RouteID?) -> Int {
        guard let index = stack.lastIndex(where: { $0.route == parent }) else {
            assertionFailure("the walk shows a child of \(parent?.rawValue ?? "nothing"), which the stack does not list")
            return stack.count
        }
        return index + 1
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
