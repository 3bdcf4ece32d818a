/// The inputs a payload builder receives, by name ("billId" → "bill_…").
public typealias RouteInputs = [String: String]

/// All routes of an app and the builders of their payloads, declared once at start-up
/// either with the tree builder (`RouteRegistry { … }`) or
/// route by route with `register(_:payload:)`.
///
/// `Context` is whatever the application hands its builders per request (its services, the
/// caller's identity, data already loaded): the registry never looks inside it.
///
/// A registry may be broken (duplicate ids, missing parents, …): `problems()` lists what is
/// wrong, and the navigator should only be used with a registry that has none.
public struct RouteRegistry<Context>: Sendable {
    /// Builds a route's screen content from its inputs.
    public typealias PayloadBuilder = @Sendable (_ inputs: RouteInputs, _ context: Context) throws -> ScreenContent
    /// Whether a route's guard holds for the inputs its screen would be shown with.
    public typealias GuardPredicate = @Sendable (_ inputs: RouteInputs, _ context: Context) throws -> Bool

    private var routesByID: [RouteID: Route] = [:]
    private var builders: [RouteID: PayloadBuilder] = [:]
    private var guardPredicates: [RouteID: GuardPredicate] = [:]
    private var childrenByID: [RouteID: [RouteID]] = [:]
    /// Route ids in the order they were registered: children are listed, and embedded, in it.
    public private(set) var order: [RouteID] = []
    /// Ids registered more than once (the later registration wins); a registry problem.
    public private(set) var duplicateIDs: [RouteID] = []

    public init() {}

    /// Adds `route` with the builder of its payload and the predicate of its guard (a route
    /// with a `routeGuard` needs one). A route without a builder shows an empty payload
    /// (containers).
    public mutating func register(_ route: Route, payload builder: PayloadBuilder? = nil, guard predicate: GuardPredicate? = nil) {
        if let previous = routesByID.updateValue(route, forKey: route.id) {
            duplicateIDs.append(route.id)
            if let parent = previous.parent { childrenByID[parent]?.removeAll { $0 == route.id } }
        } else {
            order.append(route.id)
        }
        if let parent = route.parent { childrenByID[parent, default: []].append(route.id) }
        builders[route.id] = builder
        guardPredicates[route.id] = predicate
    }

    public subscript(id: RouteID) -> Route? { routesByID[id] }

    /// All routes in registration order.
    public var routes: [Route] { order.compactMap { routesByID[$0] } }

    /// The route whose presentation is `.root`, if there is exactly one.
    public var root: Route? {
        // Which one is found first does not matter: a second one means there is none.
        var root: Route?
        for route in routesByID.values where route.presentation == .root {
            guard root == nil else { return nil }
            root = route
        }
        return root
    }

    /// The routes whose parent is `id`, in registration order.
    public func children(of id: RouteID) -> [Route] {
        (childrenByID[id] ?? []).compactMap { routesByID[$0] }
    }

    /// The routes from the root down to `id`, both included; `nil` for an unknown route or a
    /// broken chain of parents.
    public func path(to id: RouteID) -> [Route]? {
        var path: [Route] = []
        var next: RouteID? = id
        while let current = next {
            guard let route = routesByID[current], path.count <= routesByID.count else { return nil }
            path.append(route)
            next = route.parent
        }
        return path.reversed()
    }

    /// Whether `ancestor` is `id` or lies on its path from the root.
    public func isAncestor(_ ancestor: RouteID, of id: RouteID) -> Bool {
        path(to: id)?.contains { $0.id == ancestor } ?? false
    }

    /// The routes embedded in `slot` of `container`, in registration order; the first is the
    /// one a newly shown container embeds.
    public func routes(inSlot slot: String, of container: RouteID) -> [Route] {
        children(of: container).filter { $0.presentation == .embed(slot: slot) }
    }

    /// The route a deep link opens and the inputs its placeholders carry, or `nil`.
    public func resolve(url: String) -> (route: Route, inputs: RouteInputs)? {
        for route in routes {
            for pattern in route.deepLinks {
                if let inputs = pattern.match(url) { return (route, inputs) }
            }
        }
        return nil
    }

    /// The root and its chain of selected first tabs, no inputs known: the root's screen with
    /// no embedded route listed.
    public var rootStack: NavigationStack? {
        root.map { NavigationStack([StackEntry($0.id)] + firstTabChain(below: $0.id)) }
    }

    /// The first tab of `id`, that tab's first tab, and so on: what a newly shown container selects.
    public func firstTabChain(below id: RouteID) -> [StackEntry] {
        var chain: [StackEntry] = []
        var current = id
        while let tab = children(of: current).first(where: { $0.presentation == .tab }), chain.count < order.count {
            chain.append(StackEntry(tab.id))
            current = tab.id
        }
        return chain
    }

    func builder(for id: RouteID) -> PayloadBuilder? { builders[id] }

    func guardPredicate(for id: RouteID) -> GuardPredicate? { guardPredicates[id] }
}
