/// The inputs a payload builder receives, by name ("billId" → "bill_…").
public typealias RouteInputs = [String: String]

/// All routes of an app and the builders of their payloads, declared once at start-up
/// (the seeds' `RouteMap.register`).
///
/// `Context` is whatever the application hands its builders per request (its services, the
/// caller's identity, data already loaded): the registry never looks inside it.
public struct RouteRegistry<Context>: Sendable {
    /// Builds a route's screen content from its inputs.
    public typealias PayloadBuilder = @Sendable (_ inputs: RouteInputs, _ context: Context) throws -> ScreenContent

    private var routesByID: [RouteID: Route] = [:]
    private var builders: [RouteID: PayloadBuilder] = [:]
    /// Route ids in the order they were registered: children are listed, and embedded, in it.
    public private(set) var order: [RouteID] = []

    public init() {}

    /// Adds `route` with the builder of its payload. A route without a builder shows an
    /// empty payload (containers).
    public mutating func register(_ route: Route, payload builder: PayloadBuilder? = nil) {
        if routesByID.updateValue(route, forKey: route.id) == nil { order.append(route.id) }
        builders[route.id] = builder
    }

    public subscript(id: RouteID) -> Route? { routesByID[id] }

    /// All routes in registration order.
    public var routes: [Route] { order.compactMap { routesByID[$0] } }

    /// The route whose presentation is `.root`, if there is exactly one.
    public var root: Route? {
        let roots = routes.filter { $0.presentation == .root }
        return roots.count == 1 ? roots[0] : nil
    }

    /// The routes whose parent is `id`, in registration order.
    public func children(of id: RouteID) -> [Route] {
        routes.filter { $0.parent == id }
    }

    func builder(for id: RouteID) -> PayloadBuilder? { builders[id] }
}
