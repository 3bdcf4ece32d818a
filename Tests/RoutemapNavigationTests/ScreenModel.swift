import RoutemapNavigation

/// A model of the client's stack, written from docs/navigation.md ("The client's stack",
/// "Applying steps to a stack") and deliberately not from the engine's code: it reads the
/// registry only as data (each route's parent, presentation and slots).
///
/// It applies every step of an answer by the documented rules, checking each is legal when it
/// is applied, and then requires the model's stack to be exactly the answer's `stack`, inputs
/// included. It also checks that no step undoes an earlier one of the same navigation (nothing
/// shown then removed, nothing removed then shown again) and that every container a navigation
/// shows gets its initial contents in the documented order.
struct ScreenModel {
    struct Violation: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// How an entry came onto the stack: what rule 4 (`dismiss`) and rule 5 (`pop`) look for.
    private enum Kind { case root, tab, embedded, pushed, presented }

    private struct Entry {
        var entry: StackEntry
        var kind: Kind
        var startsScreen: Bool { entry.openedAsSub || [.root, .pushed, .presented].contains(kind) }
    }

    /// A container's slot (or, with `slot` nil, its tab bar) in the screen starting at `screen`.
    private struct Place: Hashable {
        var screen: Int
        var container: RouteID
        var slot: String?
    }

    /// One screen shown during a navigation: its route and inputs over the screens below it.
    private typealias Instance = [StackEntry]

    private let routes: [RouteID: Route]
    private let order: [RouteID]
    private var entries: [Entry] = []
    /// What each slot of a container on the stack shows, or which tab it has selected, as far
    /// as the model has seen.
    private var shows: [Place: StackEntry] = [:]

    // The navigation being applied.
    private var mode: NavigationMode = .to
    private var target: RouteID?
    private var subShown = false
    private var shownNow: Set<Instance> = []
    private var removedNow: Set<Instance> = []
    /// The containers shown by this navigation, with the steps that showed their children, in order.
    private var filled: [(container: Instance, children: [Step])] = []

    init(registry: RouteRegistry<String>, stack: [StackEntry] = []) {
        var routes: [RouteID: Route] = [:]
        for route in registry.routes { routes[route.id] = route }
        self.routes = routes
        self.order = registry.routes.map(\.id)
        reset(to: stack)
    }

    /// The model's stack.
    var stack: [StackEntry] { entries.map(\.entry) }

    /// Takes `stack` as the client's (as a client does with each answer's `stack`), keeping what
    /// it knows about the slots and tabs of the screens that stay, and learning from what it lists.
    mutating func reset(to stack: [StackEntry]) {
        let keep = zip(self.stack, stack).prefix { $0 == $1 }.count
        entries = stack.map { Entry(entry: $0, kind: declaredKind($0)) }
        shows = shows.filter { $0.key.screen < keep }
        for index in entries.indices { learn(index) }
    }

    private func declaredKind(_ entry: StackEntry) -> Kind {
        switch routes[entry.route]?.presentation {
        case .root?: .root
        case .tab?: entry.openedAsSub ? .presented : .tab
        case .embed?: entry.openedAsSub ? .presented : .embedded
        case .push?: .pushed
        case .present?, nil: .presented
        }
    }

    /// Records what the tab or embedded entry at `index` says about its container.
    private mutating func learn(_ index: Int) {
        let entry = entries[index].entry
        guard !entry.openedAsSub, let route = routes[entry.route], let parent = route.parent else { return }
        switch route.presentation {
        case .embed(let slot): shows[Place(screen: screenStart(of: index), container: parent, slot: slot)] = entry
        case .tab: shows[Place(screen: screenStart(of: index), container: parent, slot: nil)] = entry
        default: break
        }
    }

    /// Starts applying the steps of one navigation.
    mutating func begin(mode: NavigationMode, target: RouteID?) {
        self.mode = mode
        self.target = target
        subShown = false
        shownNow = []
        removedNow = []
        filled = []
    }

    // MARK: Screens

    private func route(_ id: RouteID) throws -> Route {
        guard let route = routes[id] else { throw Violation("\(id) is not a registered route") }
        return route
    }

    private func children(of id: RouteID) -> [Route] { order.compactMap { routes[$0] }.filter { $0.parent == id } }

    private func screenStart(of index: Int) -> Int {
        var start = index
        while start > 0 && !entries[start].startsScreen { start -= 1 }
        return start
    }

    private var topScreen: Int { entries.isEmpty ? 0 : screenStart(of: entries.count - 1) }

    /// The topmost listing of `id` in the top screen.
    private func listing(_ id: RouteID?) -> Int? {
        (topScreen..<entries.count).last { entries[$0].entry.route == id }
    }

    /// What the slot shows in the screen starting at `screen`: what the model saw, else the only
    /// route registered for the slot (unless the container was shown by this navigation, which
    /// must then fill it with a step of its own).
    private func content(of container: RouteID, slot: String, in screen: Int) -> RouteID? {
        if let shown = shows[Place(screen: screen, container: container, slot: slot)] { return shown.route }
        guard let index = listing(container), !shownNow.contains(instance(at: index)) else { return nil }
        let candidates = children(of: container).filter { $0.presentation == .embed(slot: slot) }
        return candidates.count == 1 ? candidates[0].id : nil
    }

    private func instance(at index: Int) -> Instance { entries[...index].map(\.entry) }

    // MARK: Undoing

    private mutating func markShown(_ instance: Instance) throws {
        if removedNow.contains(instance) { throw Violation("\(describe(instance)) was removed and then shown again") }
        shownNow.insert(instance)
    }

    private mutating func markRemoved(_ instance: Instance) throws {
        if shownNow.contains(instance) { throw Violation("\(describe(instance)) was shown and then removed") }
        removedNow.insert(instance)
    }

    /// Removes the entries from `index` up.
    private mutating func remove(from index: Int) throws {
        for removed in (index..<entries.count).reversed() { try markRemoved(instance(at: removed)) }
        entries.removeSubrange(index...)
        shows = shows.filter { $0.key.screen < index }
    }

    /// Cuts the stack after `index` (`nil`: to nothing) and adds `entry` on top.
    private mutating func place(_ entry: StackEntry, _ kind: Kind, over index: Int?) {
        let keep = index.map { $0 + 1 } ?? 0
        // Tabs and embedded entries above the cut stay on display (what the model knows of their
        // screen stays); screens above it are gone.
        entries.removeSubrange(keep...)
        shows = shows.filter { $0.key.screen < keep }
        entries.append(Entry(entry: entry, kind: kind))
        learn(entries.count - 1)
    }

    // MARK: Steps

    /// Applies one step (docs/navigation.md, "Applying steps to a stack"), or says why it is
    /// illegal now.
    mutating func apply(_ step: Step) throws {
        let id = step.route
        let route = try route(id)
        let shown = StackEntry(id, inputs: step.screen?.inputs ?? [:], openedAsSub: step.sub)
        if step.sub, step.op != .push && step.op != .present { throw Violation("\(step.op) \(id) carries sub") }
        switch step.op {
        case .setRoot:
            guard route.presentation == .root else { throw Violation("setRoot \(id): not the root") }
            if !entries.isEmpty { try remove(from: 0) }
            shows = [:]
            place(shown, .root, over: nil)
            try markShown(stack)

        case .selectTab, .embed:
            guard let parent = route.parent, let index = listing(parent) else {
                throw Violation("\(step.op) \(id): its parent \(route.parent?.rawValue ?? "-") is not listed in the top screen")
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
            let start = topScreen
            let holder = Place(screen: start, container: parent, slot: slot)
            let containerInstance = instance(at: index)
            if let previous = shows[holder] ?? slot.flatMap({ content(of: parent, slot: $0, in: start) }).map({ StackEntry($0) }),
                previous.route != id
            {
                try markRemoved(containerInstance + [previous])
            }
            place(shown, step.op == .selectTab ? .tab : .embedded, over: index)
            shows[holder] = shown
            try markShown(stack)
            record(step, in: containerInstance)

        case .push, .present:
            let declaredOp: StepOperation = route.presentation == .push ? .push : .present
            if step.sub {
                // The target of `sub`, over whatever is on top: push or present as declared, a
                // modal in a navigation container for a tab or an embedded route.
                guard mode == .sub, id == target, !subShown else { throw Violation("\(step.op) \(id) with sub, but the request is not sub \(id)") }
                subShown = true
                guard step.op == declaredOp else { throw Violation("sub \(id): \(step.op), but declared \(route.presentation)") }
                switch route.presentation {
                case .tab, .embed:
                    guard step.presentation?.style == .modal, step.presentation?.inNavigationContainer == true else {
                        throw Violation("sub \(id): a tab or embedded route opened with sub is a modal in a navigation container")
                    }
                default: break
                }
                place(shown, declaredOp == .push ? .pushed : .presented, over: entries.count - 1)
            } else {
                if mode == .sub, id == target, !subShown { throw Violation("sub \(id): the step does not carry sub") }
                guard step.op == declaredOp else { throw Violation("\(step.op) \(id): declared \(route.presentation)") }
                guard let parent = route.parent, let index = listing(parent) else {
                    throw Violation("\(step.op) \(id): its parent \(route.parent?.rawValue ?? "-") is not listed in the top screen")
                }
                place(shown, step.op == .push ? .pushed : .presented, over: index)
            }
            if step.op == .present && step.presentation == nil { throw Violation("present \(id) without presentation") }
            try markShown(stack)

        case .dismiss:
            guard let index = entries.indices.last(where: { entries[$0].entry.route == id && entries[$0].kind == .presented }) else {
                throw Violation("dismiss \(id): no presented entry of it")
            }
            try remove(from: index)

        case .pop:
            let top = topScreen
            guard top < entries.count, entries[top].entry.route == id, entries[top].kind == .pushed else {
                throw Violation("pop \(id): not the pushed first entry of the top screen")
            }
            try remove(from: top)

        case .popTo:
            guard let index = entries.indices.last(where: { entries[$0].entry.route == id }) else { throw Violation("popTo \(id): not on the stack") }
            let above = entries[(index + 1)...]
            guard above.contains(where: { $0.kind == .pushed }) else { throw Violation("popTo \(id): nothing pushed above it") }
            guard !above.contains(where: { $0.kind == .presented }) else { throw Violation("popTo \(id): something presented above it") }
            try remove(from: index + 1)

        case .replace:
            if let index = listing(id) {
                // Listed in the top screen: it stays where it is and becomes the top.
                entries.removeSubrange((index + 1)...)
                entries[index].entry.inputs = shown.inputs
                learn(index)
            } else {
                // Embedded in a slot of a container the top screen lists.
                guard case .embed(let slot) = route.presentation, let parent = route.parent, let index = listing(parent),
                    content(of: parent, slot: slot, in: topScreen) == id
                else { throw Violation("replace \(id): not on display") }
                place(shown, .embedded, over: index)
            }

        case .refresh:
            guard let top = entries.indices.last, entries[top].entry.route == id else { throw Violation("refresh \(id): not the top entry") }
            entries[top].entry.inputs = shown.inputs
            learn(top)
        }
    }

    /// Notes that `step` showed a child of the container `container` (for the order check).
    private mutating func record(_ step: Step, in container: Instance) {
        if let index = filled.firstIndex(where: { $0.container == container }) {
            filled[index].children.append(step)
        } else {
            filled.append((container, [step]))
        }
    }

    // MARK: Ending

    /// After the last step: every container the navigation showed got its initial contents in
    /// the documented order (its first tab, then the first route of each slot in the order of
    /// its `slots`, the one the walk continues into left out and its own step last), and the
    /// model's stack is exactly the answer's `stack`.
    func finish(expecting returned: NavigationStack) throws {
        for shown in shownNow {
            guard let last = shown.last, let route = routes[last.route] else { continue }
            let tabs = children(of: route.id).filter { $0.presentation == .tab }
            let slotFirsts = route.slots.compactMap { slot in children(of: route.id).first { $0.presentation == .embed(slot: slot) } }
            let expected = (tabs.first.map { [$0] } ?? []) + slotFirsts
            guard !expected.isEmpty else { continue }
            let steps = filled.first { $0.container == shown }?.children.map(\.route) ?? []
            if steps == expected.map(\.id) { continue }
            // The walk continued into one tab or slot: left out of the initial contents, its step last.
            guard let continued = steps.last, let continuedRoute = routes[continued],
                let skipped = expected.firstIndex(where: { $0.presentation == continuedRoute.presentation })
            else {
                throw Violation("\(describe(shown)) was shown with children \(steps), not its initial contents \(expected.map(\.id))")
            }
            var others = expected.map(\.id)
            others.remove(at: skipped)
            guard Array(steps.dropLast()) == others else {
                throw Violation("\(describe(shown)) was shown with children \(steps): expected \(others) then \(continued)")
            }
        }
        try checkShape(returned.entries)
        guard stack == returned.entries else {
            throw Violation("the steps lead to \(describe(stack)), the answer says \(describe(returned.entries))")
        }
    }

    /// A stack as the doc defines it: the root, then every entry a child of the one below it
    /// unless opened with `sub` (never the root).
    private func checkShape(_ stack: [StackEntry]) throws {
        guard let first = stack.first, !first.openedAsSub, routes[first.route]?.presentation == .root else {
            throw Violation("the stack \(describe(stack)) does not start at the root")
        }
        for (below, entry) in zip(stack, stack.dropFirst()) {
            let route = try route(entry.route)
            if entry.openedAsSub ? route.presentation == .root : route.parent != below.route {
                throw Violation("the stack \(describe(stack)) has \(entry) over \(below)")
            }
        }
    }

    private func describe(_ stack: [StackEntry]) -> String { "[" + stack.map(\.description).joined(separator: ",") + "]" }

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
