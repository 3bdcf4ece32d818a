/// The app's navigation state as the client library keeps it: the stack it sends as `from`, and
/// the screens it shows with the data each was shown with. Steps change it by the rules of
/// docs/navigation.md, "Applying steps to a stack" (numbered here as there); the registry
/// (`GET /v1/routes`) says where each route sits.
///
/// The stack is cut into *screens* (here `layers`, to keep apart from `Screen`, a route's
/// content): the root, and every entry that is pushed, presented or opened with `sub`, each
/// start one; the tabs and embedded routes listed above it belong to it. Only the top screen is
/// on display. Each shown `Screen` belongs to the layer it was shown in, listed on the stack or
/// not (a container's embedded routes are shown, the stack lists at most one: the focus);
/// removing a layer removes its screens.
///
/// A step without a `screen` is a user gesture the server did not see (a tab or column tapped,
/// the system back button, passed to `NavigationSession.noteUserNavigation`). It shows nothing
/// new: the route keeps the screen the app already shows for it in that layer, and its entry
/// takes that screen's inputs (docs/navigation.md: "an unlisted embedded route's entry, when a
/// step lists it, takes the inputs of the screen the client shows for it"). A tab bar keeps the
/// screens of tabs the user left, so a tab tapped again shows what it showed before, with what
/// its slots showed (`parked`).
struct NavigationModel: Sendable {
    /// A step the rules do not allow on the current state.
    struct Violation: Error, Sendable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Where each route sits. The session replaces it when it reads the registry again (after
    /// a deploy added or moved routes); the stack and the screens stay.
    var routes: RouteMap
    private(set) var stack: [StackEntry] = []
    /// Every screen the app shows, covered ones included, in the order they were shown (the latest last).
    private(set) var shown: [DisplayedScreen] = []
    /// The screens of tabs another tab took the place of, with what was shown inside them: the
    /// tab bar keeps them, and a tab the user taps again (a `selectTab` without a screen) shows
    /// them again. Dropped with their layer, and when a step shows the tab anew.
    private(set) var parked: [DisplayedScreen] = []
    private var shownCount = 0

    init(routes: RouteMap) { self.routes = routes }

    /// The screens on display (those of the top layer), the most recently shown first.
    var onDisplay: [DisplayedScreen] { shown.filter { $0.layer == topLayer }.sorted { $0.order > $1.order } }

    // MARK: Layers

    private func startsLayer(_ entry: StackEntry) -> Bool {
        entry.sub || routes.isPushed(entry) || routes.isPresented(entry) || routes[entry.route]?.presentation == .root
    }

    /// The stack index of the layer `index` belongs to.
    private func layerStart(of index: Int) -> Int {
        var start = index
        while start > 0 && !startsLayer(stack[start]) { start -= 1 }
        return start
    }

    /// The top layer: the one on display.
    private var topLayer: Int { stack.isEmpty ? 0 : layerStart(of: stack.count - 1) }

    /// The index of the topmost entry of `route` listed in the top layer.
    private func listingOnTop(_ route: RouteID?) -> Int? {
        guard let route else { return nil }
        return (topLayer..<stack.count).last { stack[$0].route == route }
    }

    // MARK: Applying steps

    /// Applies one step, or throws why the rules do not allow it now (nothing changes then).
    mutating func apply(_ step: Step) throws {
        let id = step.route
        guard let route = routes[id] else { throw Violation("\(step.op) \(id): not a registered route") }
        var entry = StackEntry(route: id, inputs: inputs(of: step), sub: step.opensSub)
        switch step.op {
        case .setRoot:  // 1
            guard route.presentation == .root else { throw Violation("setRoot \(id): not the root") }
            stack = [entry]
            shown = []
            parked = []
            show(step, layer: 0)

        case .selectTab, .embed:  // 2
            switch (step.op, route.presentation) {
            case (.selectTab, .tab): break
            case (.embed, .embed(let slot)) where step.slot == slot: break
            default: throw Violation("\(step.op) \(id): the route is declared \(route.presentation)")
            }
            guard let parent = listingOnTop(route.parent) else {
                throw Violation("\(step.op) \(id): its parent \(route.parent ?? "-") is not listed in the top screen")
            }
            let layer = topLayer
            if step.screen == nil, step.op == .selectTab, shownScreen(of: id, in: layer) == nil {
                // A tab the user taps again shows what it showed when it was left.
                restoreParked(id, in: layer)
                entry.inputs = shownScreen(of: id, in: layer)?.screen.inputs ?? [:]
            }
            // What held the tab bar or the slot leaves the display, with what was shown inside
            // it (a tab bar keeps a tab it leaves); a step without a screen keeps what R shows.
            for other in shown where other.layer == layer && routes.sharesPlace(other.route, with: id) {
                if other.route == id && step.screen == nil { continue }
                let removed = removeShown(other.route, andContentsIn: layer)
                if route.presentation == .tab && other.route != id { parked += removed }
            }
            if step.screen != nil { dropParked(id, in: layer) }
            stack = Array(stack[...parent]) + [entry]
            show(step, layer: layer)

        case .push, .present:  // 3
            if step.opensSub {
                stack.append(entry)
            } else {
                let declared: StepOperation = route.presentation == .push ? .push : .present
                guard step.op == declared else { throw Violation("\(step.op) \(id): the route is declared \(route.presentation)") }
                guard let parent = listingOnTop(route.parent) else {
                    throw Violation("\(step.op) \(id): its parent \(route.parent ?? "-") is not listed in the top screen")
                }
                stack = Array(stack[...parent]) + [entry]
            }
            show(step, layer: stack.count - 1)

        case .dismiss:  // 4
            guard let index = stack.indices.last(where: { stack[$0].route == id && routes.isPresented(stack[$0]) }) else {
                throw Violation("dismiss \(id): not a presented entry")
            }
            remove(from: index)

        case .pop:  // 5
            let top = topLayer
            guard !stack.isEmpty, stack[top].route == id, routes.isPushed(stack[top]) else {
                throw Violation("pop \(id): not the pushed first entry of the top screen")
            }
            remove(from: top)

        case .popTo:  // 6
            guard let index = stack.indices.last(where: { stack[$0].route == id }) else { throw Violation("popTo \(id): not on the stack") }
            let above = (index + 1)..<stack.count
            guard !above.isEmpty, above.allSatisfy({ routes.isPushed(stack[layerStart(of: $0)]) }) else {
                throw Violation("popTo \(id): the entries above it are not all in pushed screens")
            }
            remove(from: index + 1)

        case .replace:  // 7
            if let listed = listingOnTop(id) {
                stack = Array(stack[...listed])
                stack[listed].inputs = entry.inputs
            } else if case .embed = route.presentation, let container = listingOnTop(route.parent) {
                stack = Array(stack[...container]) + [entry]
            } else {
                throw Violation("replace \(id): not on display")
            }
            replaceShown(step)

        case .refresh:  // 8
            guard stack.last?.route == id else { throw Violation("refresh \(id): not the top entry") }
            stack[stack.count - 1].inputs = entry.inputs
            replaceShown(step)

        case .unknown(let op):
            throw Violation("\(op) \(id): an operation this client does not know")
        }
    }

    /// The gestures that give `route` the focus when the top screen shows it but does not list
    /// it (a tab or embedded route beside the focus, or inside one that is not listed), as a
    /// user's tap in its column would: from its outermost unlisted container down to it, a
    /// `selectTab` or `replace` without a screen (each keeps what is shown, and its entry takes
    /// the inputs of the screen shown). Empty when the top screen lists `route` already; nil
    /// when it is not on display.
    func focusGestures(on route: RouteID) -> [Step]? {
        if listingOnTop(route) != nil { return [] }
        guard shownScreen(of: route, in: topLayer) != nil else { return nil }
        var gestures: [Step] = []
        var current = route
        var seen: Set<RouteID> = []
        while seen.insert(current).inserted {  // a parent loop (never served) ends here
            guard let declared = routes[current] else { return nil }
            switch declared.presentation {
            case .tab: gestures.insert(Step(op: .selectTab, route: current), at: 0)
            case .embed: gestures.insert(Step(op: .replace, route: current), at: 0)
            default: return nil
            }
            guard let parent = declared.parent else { return nil }
            if listingOnTop(parent) != nil { return gestures }
            guard shownScreen(of: parent, in: topLayer) != nil else { return nil }
            current = parent
        }
        return nil
    }

    /// Takes `entries` as the stack (an answer's `stack` the steps did not lead to), keeping
    /// the screens of the layers that stay.
    mutating func adopt(stack entries: [StackEntry]) {
        let keep = zip(stack, entries).prefix { $0 == $1 }.count
        stack = entries
        shown.removeAll { $0.layer >= keep }
        parked.removeAll { $0.layer >= keep }
    }

    // MARK: Helpers

    private mutating func show(_ step: Step, layer: Int) {
        guard let screen = step.screen else { return }
        shownCount += 1
        shown.append(DisplayedScreen(route: step.route, screen: screen, layer: layer, sub: step.opensSub, order: shownCount))
    }

    /// The inputs a step gives its entry: its screen's; without a screen (a user gesture), those
    /// of the screen the app shows for the route in the top layer, when the step keeps what is
    /// on display (`selectTab`, `embed`, `replace`, `refresh`).
    private func inputs(of step: Step) -> [String: String] {
        if let screen = step.screen { return screen.inputs }
        switch step.op {
        case .selectTab, .embed, .replace, .refresh: return shownScreen(of: step.route, in: topLayer)?.screen.inputs ?? [:]
        default: return [:]
        }
    }

    /// The screen shown for `route` in `layer`, if any.
    private func shownScreen(of route: RouteID, in layer: Int) -> DisplayedScreen? {
        shown.last { $0.layer == layer && $0.route == route }
    }

    /// The step's screen for its route in the top layer, in place of the one shown there; a
    /// step without a screen keeps the one shown.
    private mutating func replaceShown(_ step: Step) {
        guard let screen = step.screen else { return }
        let layer = topLayer
        let previous = shown.lastIndex { $0.layer == layer && $0.route == step.route }
        let sub = previous.map { shown[$0].sub } ?? false
        if let previous { shown.remove(at: previous) }
        shownCount += 1
        shown.append(DisplayedScreen(route: step.route, screen: screen, layer: layer, sub: sub, order: shownCount))
    }

    /// Removes the stack from `index` up, with the screens of the layers that start there.
    private mutating func remove(from index: Int) {
        stack.removeSubrange(index...)
        shown.removeAll { $0.layer >= index }
        parked.removeAll { $0.layer >= index }
    }

    /// Removes the screen of `route` in `layer` and what is shown inside it (its tabs, its
    /// slots' routes); returns what it removed.
    @discardableResult
    private mutating func removeShown(_ route: RouteID, andContentsIn layer: Int) -> [DisplayedScreen] {
        let inside = screens(within: route, in: layer)
        let removed = shown.filter(inside)
        shown.removeAll(where: inside)
        return removed
    }

    /// Shows again the parked screen of tab `route` in `layer`, with what was shown inside it.
    private mutating func restoreParked(_ route: RouteID, in layer: Int) {
        let restored = parked.filter(screens(within: route, in: layer))
        guard restored.contains(where: { $0.route == route }) else { return }
        dropParked(route, in: layer)
        shown = (shown + restored).sorted { $0.order < $1.order }
    }

    /// Forgets the parked screen of `route` in `layer`, with what was shown inside it.
    private mutating func dropParked(_ route: RouteID, in layer: Int) {
        parked.removeAll(where: screens(within: route, in: layer))
    }

    /// Whether a screen is `route`'s in `layer`, or one shown inside it there.
    private func screens(within route: RouteID, in layer: Int) -> (DisplayedScreen) -> Bool {
        let routes = routes
        return { $0.layer == layer && routes.isWithin($0.route, route) }
    }
}

/// A screen the app shows, with what it was shown with.
public struct DisplayedScreen: Sendable, Hashable {
    public var route: RouteID
    public var screen: Screen
    /// The stack index of the layer it is shown in (the session's bookkeeping).
    var layer: Int
    /// Opened by a `sub` walk.
    public var sub: Bool
    /// Grows with each screen shown: a later screen has a larger one (the session's bookkeeping).
    var order: Int
}

/// The registry as the navigation model reads it: each route's parent, presentation and slots.
/// Equal when the registries are (a registry read again tells whether a deploy changed it).
struct RouteMap: Sendable, Equatable {
    private let routes: [RouteID: Route]

    init(_ routes: [Route]) {
        self.routes = Dictionary(routes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The registry from `GET /v1/routes`.
    init(tree: RouteTree) { self.init(tree.allRoutes) }

    subscript(id: RouteID) -> Route? { routes[id] }

    /// Pushed: declared `push`.
    func isPushed(_ entry: StackEntry) -> Bool { routes[entry.route]?.presentation == .push }

    /// Presented: declared `present`, or opened with `sub` while declared a tab or embedded
    /// (it is then a modal in a navigation container).
    func isPresented(_ entry: StackEntry) -> Bool {
        switch routes[entry.route]?.presentation {
        case .present: true
        case .tab, .embed: entry.sub
        default: false
        }
    }

    /// Shown inside its parent (a tab or an embedded route) rather than over it.
    func isInside(_ id: RouteID) -> Bool {
        switch routes[id]?.presentation {
        case .tab, .embed: true
        default: false
        }
    }

    /// Whether `route` is `container` or shown inside it: one of its tabs or slots' routes, or one of theirs.
    func isWithin(_ route: RouteID, _ container: RouteID) -> Bool {
        var current = route
        for _ in 0...routes.count {  // at most every route once: a parent loop ends
            if current == container { return true }
            guard isInside(current), let parent = routes[current]?.parent else { return false }
            current = parent
        }
        return false
    }

    /// Whether `a` and `b` take the same place in their parent: tabs of one tab bar, or routes
    /// of one slot.
    func sharesPlace(_ a: RouteID, with b: RouteID) -> Bool {
        guard let first = routes[a], let second = routes[b], first.parent == second.parent else { return false }
        switch (first.presentation, second.presentation) {
        case (.tab, .tab): return true
        case (.embed(let slotA), .embed(let slotB)): return slotA == slotB
        default: return false
        }
    }
}
