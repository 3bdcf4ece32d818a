/// A precondition of a route: the engine shows the route only while it holds (the order summary
/// only for a checked-out bill). The engine knows a guard by its name and code; the application
/// supplies the predicate (`GuardedBy`), which reads its own data.
public struct RouteGuard: Sendable, Hashable {
    /// Names the predicate in listings (`billCheckedOut`).
    public var name: String
    /// The stable code of the refusal when the guard fails (`bill_not_checked_out`).
    public var code: String
    /// What must hold, for people: "the bill is checked out".
    public var summary: String

    public init(name: String, code: String, summary: String) {
        self.name = name
        self.code = code
        self.summary = summary
    }
}

/// A guard with its predicate, as a `RouteNode` declares it.
public struct GuardedBy<Context>: Sendable {
    public let routeGuard: RouteGuard
    public let holds: RouteRegistry<Context>.GuardPredicate

    /// `holds` gets the inputs the route's screen would be shown with and the request's context;
    /// it may throw (an unknown bill is the same error a payload builder would raise).
    public init(_ routeGuard: RouteGuard, holds: @escaping RouteRegistry<Context>.GuardPredicate) {
        self.routeGuard = routeGuard
        self.holds = holds
    }
}
