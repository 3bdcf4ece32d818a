/// Why the navigator could not produce steps.
public enum NavigationError: Error, Sendable, Hashable {
    /// The registry has no route with this id.
    case unknownRoute(RouteID)
    /// The registry has no root route to launch from.
    case noRoot
    /// The client's stack is not one the registry can produce; the reason says which entry.
    case invalidStack(String)
    /// A screen needs an input that the client did not send and the server cannot derive.
    case missingInput(name: String, route: RouteID)
    /// `parent` from a stack holding only the root.
    case noParent
    /// `to` and `sub` need a target route.
    case targetRequired
    /// `sub` cannot open the root over another screen.
    case rootAsSub
    /// The walk would show `route`, whose guard does not hold: nothing is shown.
    case guardFailed(route: RouteID, RouteGuard)
    /// The client cannot perform what the navigation needs, even degraded; the reason says what.
    case unsupportedClient(String)
}
