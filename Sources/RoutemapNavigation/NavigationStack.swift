import RoutemapJSON

/// One entry of a client's navigation stack: a route, and whether it was opened with `sub`
/// (shown over the route below it rather than under its registered parent). In JSON an entry
/// is the route id, or `sub:` followed by it.
public struct StackEntry: Sendable, Hashable, CustomStringConvertible {
    public var route: RouteID
    public var openedAsSub: Bool

    public init(_ route: RouteID, openedAsSub: Bool = false) {
        self.route = route
        self.openedAsSub = openedAsSub
    }

    /// Reads `"bill"` or `"sub:bill"`.
    public init(parsing text: String) {
        if text.hasPrefix(StackEntry.subPrefix) {
            self.init(RouteID(String(text.dropFirst(StackEntry.subPrefix.count))), openedAsSub: true)
        } else {
            self.init(RouteID(text))
        }
    }

    public var description: String { openedAsSub ? StackEntry.subPrefix + route.rawValue : route.rawValue }

    static let subPrefix = "sub:"
}

/// The routes a client has on screen, from the root to the top screen, as it sends them in
/// `from` and receives them in `stack`. Routes embedded in a container on the stack are on
/// screen too without being listed.
public struct NavigationStack: Sendable, Hashable, CustomStringConvertible {
    public var entries: [StackEntry]

    public init(_ entries: [StackEntry]) { self.entries = entries }

    /// A stack of plain route ids (no `sub` entries).
    public init(routes: [RouteID]) { self.entries = routes.map { StackEntry($0) } }

    /// The stack in its JSON form: `["tabBar", "splitContainer", "sub:bill"]`.
    public var json: JSON { .array(entries.map { .string($0.description) }) }

    public var description: String { entries.map(\.description).joined(separator: ",") }

    public var top: StackEntry? { entries.last }
}
