/// Why the navigator could not produce steps.
public enum NavigationError: Error, Sendable, Hashable {
    /// The registry has no route with this id.
    case unknownRoute(RouteID)
    /// The registry has no root route to launch from.
    case noRoot
}
