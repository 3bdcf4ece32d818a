import RoutemapNavigation

/// A model of the client's screen stack, written from docs/navigation.md ("The client's stack",
/// "Applying steps to a stack") and deliberately not from the engine's code: it reads the
/// registry only as data (each route's parent, presentation and slots).
///
/// The stack is divided into *screens*: an entry that is the root, pushed, presented or opened
/// with `sub` starts one; the tabs and embedded routes listed above it belong to it. The model
/// also remembers what each container's slots and tab bar show, because embedded routes of a
/// container on the stack are on screen without being listed.
///
/// `apply` checks each step is legal at the time it is applied, and that no step undoes an
/// earlier one of the same navigation (nothing shown then removed, nothing removed then shown
/// again); `finish` checks where the navigation ended.
struct ScreenModel {
    struct Violation: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A container inside the screen that starts at stack index `screen`.
    private struct Place: Hashable {
        var screen: Int
        var container: RouteID
        var slot: String?
    }

    /// One screen instance: a route, where it is shown (the stack index of the screen it
    /// starts or belongs to) and whether it was opened with `sub`. The same route shown
    /// elsewhere (a `sub` copy, another screen) is another instance.
    private struct Instance: Hashable, CustomStringConvertible {
        var route: RouteID
        var screen: Int
        var openedAsSub: Bool
        var description: String { "\(openedAsSub ? "sub:" : "")\(route)" }
    }

    private let routes: [RouteID: Route]
    private let order: [RouteID]
    private(set) var stack: [StackEntry]
    /// What a slot of a container shows (`slot` set), or which tab a container has selected (`slot` nil).
    private var shows: [Place: RouteID] = [:]

    // The navigation being applied.
    private var mode: NavigationMode = .to
    private var target: RouteID?
    private var subShown = false
    private var shownNow: Set<Instance> = []
    private var removedNow: Set<Instance> = []

    init(registry: RouteRegistry<String>, stack entries: [StackEntry] = []) {
        var routes: [RouteID: Route] = [:]
        for route in registry.routes { routes[route.id] = route }
        self.routes = routes
        self.order = registry.routes.map(\.id)
        self.stack = []
        reset(to: entries)
    }

    /// Takes `entries` as the stack (as a client does with each answer's `stack`), keeping what
    /// it knows about slots and tabs of the screens that stay, and learning from what it lists.
    mutating func reset(to entries: [StackEntry]) {
        let keep = zip(stack, entries).prefix { $0 == $1 }.count
        stack = entries
        forgetScreens(from: keep)
        for index in stack.indices where !stack[index].openedAsSub {
            guard let route = routes[stack[index].route], let parent = route.parent else { continue }
            switch route.presentation {
            case .embed(let slot): shows[Place(screen: screenStart(of: index), container: parent, slot: slot)] = route.id
            case .tab: shows[Place(screen: screenStart(of: index), container: parent, slot: nil)] = route.id
            default: break
            }
        }
    }

    /// Starts applying the steps of one navigation.
    mutating func begin(mode: NavigationMode, target: RouteID?) {
        self.mode = mode
        self.target = target
        subShown = false
        shownNow = []
        removedNow = []
    }

    // MARK: Registry facts

    private func route(_ id: RouteID) throws -> Route {
        guard let route = routes[id] else { throw Violation("\(id) is not a registered route") }
        return route
    }

    private func children(of id: RouteID) -> [Route] { order.compactMap { routes[$0] }.filter { $0.parent == id } }

    private func isPushed(_ entry: StackEntry) -> Bool { routes[entry.route]?.presentation == .push }

    /// Presented: declared `present`, or opened with `sub` while declared a tab or embedded
    /// (then it is a modal in a navigation container).
    private func isPresented(_ entry: StackEntry) -> Bool {
        switch routes[entry.route]?.presentation {
        case .present: true
        case .tab, .embed: entry.openedAsSub
        default: false
        }
    }

    private func startsScreen(_ entry: StackEntry) -> Bool {
        entry.openedAsSub || isPushed(entry) || isPresented(entry) || routes[entry.route]?.presentation == .root
    }

    // MARK: Screens

    private func screenStart(of index: Int) -> Int {
        var start = index
        while start > 0 && !startsScreen(stack[start]) { start -= 1 }
        return start
    }

    private var topScreen: Int { screenStart(of: stack.count - 1) }

    private func screenEnd(_ start: Int) -> Int {
        var end = start + 1
        while end < stack.count && !startsScreen(stack[end]) { end += 1 }
        return end
    }

    private var screenStarts: [Int] { stack.indices.filter { startsScreen(stack[$0]) || $0 == 0 } }

    /// The routes on screen in the screen starting at `start`: its listed entries, and what the
    /// slots and tab bars of those show, recursively. A slot nobody told the model about shows
    /// its only registered route — unless its container was shown by the navigation being
    /// applied, which must then embed it with a step of its own.
    private func onScreen(_ start: Int) -> Set<RouteID> {
        var result = Set(stack[start..<screenEnd(start)].map(\.route))
        var queue = Array(result)
        while let id = queue.popLast() {
            guard let route = routes[id] else { continue }
            var contents: [RouteID] = []
            for slot in route.slots {
                if let shown = shows[Place(screen: start, container: id, slot: slot)] {
                    contents.append(shown)
                } else if !shownNow.contains(instance(id, in: start)) {
                    let candidates = children(of: id).filter { $0.presentation == .embed(slot: slot) }
                    if candidates.count == 1 { contents.append(candidates[0].id) }
                }
            }
            if let tab = shows[Place(screen: start, container: id, slot: nil)] { contents.append(tab) }
            for content in contents where result.insert(content).inserted { queue.append(content) }
        }
        return result
    }

    /// Whether `id` is on screen on top (not covered by a pushed or presented screen).
    func isOnTop(_ id: RouteID) -> Bool { !stack.isEmpty && onScreen(topScreen).contains(id) }

    /// The stack up to `id`, which is on screen on top: its listed part, then the embedded
    /// routes and tabs leading to it from the nearest listed ancestor.
    private func stack(upTo id: RouteID) throws -> [StackEntry] {
        let start = topScreen
        var chain: [RouteID] = []
        var current: RouteID? = id
        while let next = current {
            if let index = (start..<stack.count).last(where: { stack[$0].route == next }) {
                return Array(stack[...index]) + chain.reversed().map { StackEntry($0) }
            }
            chain.append(next)
            current = routes[next]?.parent
        }
        throw Violation("\(id) is on screen but not below the top screen")
    }

    private mutating func forgetScreens(from index: Int) {
        shows = shows.filter { $0.key.screen < index }
    }

    // MARK: Undoing

    /// The instance of `id` on screen in the screen starting at `start`.
    private func instance(_ id: RouteID, in start: Int) -> Instance {
        let starts = start < stack.count && stack[start].route == id
        return Instance(route: id, screen: start, openedAsSub: starts && stack[start].openedAsSub)
    }

    private mutating func markShown(_ id: RouteID) throws {
        let shown = instance(id, in: topScreen)
        if removedNow.contains(shown) { throw Violation("\(shown) was removed and then shown again") }
        shownNow.insert(shown)
    }

    private mutating func markRemoved(_ id: RouteID, in start: Int) throws {
        let removed = instance(id, in: start)
        if shownNow.contains(removed) { throw Violation("\(removed) was shown and then removed") }
        removedNow.insert(removed)
    }

    /// Removes the stack from `index` up: every screen starting there leaves with all it
    /// shows; tabs and embedded routes above `index` in the screen below stay on screen.
    private mutating func remove(from index: Int) throws {
        for start in screenStarts where start >= index {
            for id in onScreen(start) { try markRemoved(id, in: start) }
        }
        stack.removeSubrange(index...)
        forgetScreens(from: index)
    }

    // MARK: Steps

    /// Applies one step (docs/navigation.md, "Applying steps to a stack"), or says why it is illegal now.
    mutating func apply(_ step: Step) throws {
        let id = step.route
        let route = try route(id)
        switch step.op {
        case .setRoot:
            guard route.presentation == .root else { throw Violation("setRoot \(id): not the root") }
            if !stack.isEmpty { try remove(from: 0) }
            stack = [StackEntry(id)]
            shows = [:]
            try markShown(id)

        case .selectTab, .embed:
            guard let parent = route.parent, isOnTop(parent) else {
                throw Violation("\(step.op) \(id): its parent \(route.parent?.rawValue ?? "-") is not on screen on top")
            }
            let slot: String?
            if step.op == .selectTab {
                guard route.presentation == .tab else { throw Violation("selectTab \(id): not a tab") }
                slot = nil
            } else {
                guard case .embed(let declared) = route.presentation else { throw Violation("embed \(id): not embedded") }
                guard step.slot == declared else { throw Violation("embed \(id): slot \(step.slot ?? "nil"), declared \(declared)") }
                slot = declared
            }
            let place = Place(screen: topScreen, container: parent, slot: slot)
            let previous: RouteID? =
                shows[place]
                ?? (slot != nil && !shownNow.contains(instance(parent, in: topScreen))
                    && children(of: parent).filter { $0.presentation == route.presentation }.count == 1 ? id : nil)
            if let previous, previous != id { try markRemoved(previous, in: topScreen) }
            stack = try stack(upTo: parent) + [StackEntry(id)]
            shows[place] = id
            try markShown(id)

        case .push, .present:
            let declaredOp: StepOperation = route.presentation == .push ? .push : .present
            if mode == .sub, id == target, !subShown {
                // The target of `sub`, over whatever is on top: push or present as declared, a
                // modal in a navigation container for a tab or an embedded route.
                subShown = true
                guard step.op == declaredOp else { throw Violation("sub \(id): \(step.op), but declared \(route.presentation)") }
                if case .tab = route.presentation, step.presentation?.style != .modal || step.presentation?.inNavigationContainer != true {
                    throw Violation("sub \(id): a tab opened with sub is a modal in a navigation container")
                }
                if case .embed = route.presentation, step.presentation?.style != .modal || step.presentation?.inNavigationContainer != true {
                    throw Violation("sub \(id): an embedded route opened with sub is a modal in a navigation container")
                }
                stack.append(StackEntry(id, openedAsSub: true))
            } else {
                guard step.op == declaredOp else { throw Violation("\(step.op) \(id): declared \(route.presentation)") }
                guard let parent = route.parent, isOnTop(parent) else {
                    throw Violation("\(step.op) \(id): its parent \(route.parent?.rawValue ?? "-") is not on screen on top")
                }
                stack = try stack(upTo: parent) + [StackEntry(id)]
            }
            if step.op == .present && step.presentation == nil { throw Violation("present \(id) without presentation") }
            forgetScreens(from: stack.count - 1)
            try markShown(id)

        case .dismiss:
            guard let index = stack.indices.last(where: { stack[$0].route == id && isPresented(stack[$0]) }) else {
                throw Violation("dismiss \(id): not a presented entry")
            }
            try remove(from: index)

        case .pop:
            // The top screen: the entry on top, or the entry only its own tabs and embedded
            // routes are listed above (a stack ending at a tab container lists its tab).
            let top = topScreen
            guard top >= 0, stack[top].route == id, isPushed(stack[top]) else { throw Violation("pop \(id): not the pushed top screen") }
            try remove(from: top)

        case .popTo:
            guard let index = stack.indices.last(where: { stack[$0].route == id }) else { throw Violation("popTo \(id): not on the stack") }
            let above = stack[(index + 1)...]
            guard above.contains(where: isPushed) else { throw Violation("popTo \(id): nothing pushed above it") }
            guard !above.contains(where: isPresented) else { throw Violation("popTo \(id): something presented above it") }
            try remove(from: index + 1)

        case .replace, .refresh:
            guard isOnTop(id) else { throw Violation("\(step.op) \(id): not on screen") }
        }
    }

    /// After the last step: every container the navigation showed has its initial contents
    /// (a selected tab, every slot filled), and the model agrees with the returned `stack`:
    /// the same entries except embedded routes listed on top (they only say which has the
    /// focus), which must be on screen on top.
    func finish(expecting returned: NavigationStack) throws {
        for start in screenStarts {
            for id in onScreen(start) where shownNow.contains(instance(id, in: start)) {
                let route = try route(id)
                if children(of: id).contains(where: { $0.presentation == .tab }), shows[Place(screen: start, container: id, slot: nil)] == nil {
                    throw Violation("\(id) was shown without selecting a tab")
                }
                for slot in route.slots where children(of: id).contains(where: { $0.presentation == .embed(slot: slot) }) {
                    if shows[Place(screen: start, container: id, slot: slot)] == nil {
                        throw Violation("\(id) was shown without filling its slot \(slot)")
                    }
                }
            }
        }
        let expected = returned.entries
        try checkShape(expected)
        let (modelBase, _) = split(stack)
        let (expectedBase, expectedFocus) = split(expected)
        guard modelBase == expectedBase else {
            throw Violation("the model ends at \(describe(stack)), the answer says \(describe(expected))")
        }
        for entry in expectedFocus where !isOnTop(entry.route) {
            throw Violation("\(entry) is in the answer's stack but not on screen on top in the model")
        }
    }

    /// The stack without the embedded routes listed on its top, and those routes.
    private func split(_ entries: [StackEntry]) -> ([StackEntry], [StackEntry]) {
        var base = entries
        var focus: [StackEntry] = []
        while let last = base.last, !last.openedAsSub, case .embed = routes[last.route]?.presentation {
            focus.insert(base.removeLast(), at: 0)
        }
        return (base, focus)
    }

    /// A stack as the doc defines it: the root, then every entry a child of the one below it
    /// unless opened with `sub` (never the root).
    private func checkShape(_ entries: [StackEntry]) throws {
        guard let first = entries.first, !first.openedAsSub, routes[first.route]?.presentation == .root else {
            throw Violation("the stack \(describe(entries)) does not start at the root")
        }
        for (below, entry) in zip(entries, entries.dropFirst()) {
            let route = try route(entry.route)
            if entry.openedAsSub ? route.presentation == .root : route.parent != below.route {
                throw Violation("the stack \(describe(entries)) has \(entry) over \(below)")
            }
        }
    }

    private func describe(_ entries: [StackEntry]) -> String { "[" + entries.map(\.description).joined(separator: ",") + "]" }

    /// Applies a whole navigation and checks where it ends; the first problem is thrown.
    mutating func follow(_ navigation: Navigation, mode: NavigationMode, target: RouteID?) throws {
        begin(mode: mode, target: target)
        for (index, step) in navigation.steps.enumerated() {
            do { try apply(step) } catch let violation as Violation {
                throw Violation("step \(index + 1) (\(step.op) \(step.route)): \(violation)")
            }
        }
        if mode == .sub && !subShown { throw Violation("sub \(target?.rawValue ?? "-") never showed its target") }
        try finish(expecting: navigation.stack)
    }
}
