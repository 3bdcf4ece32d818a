import RoutemapJSON

/// One entry of a client's navigation stack: a route, the inputs its screen shows (which bill),
/// and whether it was opened with `sub` (shown over the route below it rather than under its
/// registered parent). In JSON: `{"route": "bill", "inputs": {"billId": "bill_…"}}`, with
/// `"sub": true` for a `sub` entry.
public struct StackEntry: Sendable, Hashable, CustomStringConvertible {
    public var route: RouteID
    /// The `screen.inputs` of the step that last showed, replaced or refreshed the screen;
    /// empty when the screen has none, or when the client did not say (an entry sent as a string).
    public var inputs: RouteInputs
    public var openedAsSub: Bool

    public init(_ route: RouteID, inputs: RouteInputs = [:], openedAsSub: Bool = false) {
        self.route = route
        self.inputs = inputs
        self.openedAsSub = openedAsSub
    }

    /// Reads the string form clients sent before entries had inputs: `"bill"` or `"sub:bill"`
    /// (no inputs known).
    public init(parsing text: String) {
        if text.hasPrefix(StackEntry.subPrefix) {
            self.init(RouteID(String(text.dropFirst(StackEntry.subPrefix.count))), openedAsSub: true)
        } else {
            self.init(RouteID(text))
        }
    }

    /// `sub:bill{billId=b1}`: the string form, with the inputs sorted by name in braces.
    public var description: String {
        let name = openedAsSub ? StackEntry.subPrefix + route.rawValue : route.rawValue
        guard !inputs.isEmpty else { return name }
        return name + "{" + inputs.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") + "}"
    }

    /// The entry as answers carry it; `inputs` always present, `sub` only when true.
    public var json: JSON {
        var object: JSONObject = ["route": .string(route.rawValue), "inputs": Screen.sortedObject(inputs)]
        if openedAsSub { object.append("sub", true) }
        return .object(object)
    }

    static let subPrefix = "sub:"
}

/// The screens a client has on display and under them, from the root to the screen in focus,
/// as it sends them in `from` and receives them in `stack` (docs/navigation.md, "The client's
/// stack"). Routes embedded in a container on the stack are on display too without being listed.
public struct NavigationStack: Sendable, Hashable, CustomStringConvertible {
    public var entries: [StackEntry]

    public init(_ entries: [StackEntry]) { self.entries = entries }

    /// A stack of plain route ids: no inputs known, no `sub` entries.
    public init(routes: [RouteID]) { self.entries = routes.map { StackEntry($0) } }

    /// The stack in its JSON form: an array of entry objects.
    public var json: JSON { .array(entries.map(\.json)) }

    public var description: String { entries.map(\.description).joined(separator: ",") }

    public var top: StackEntry? { entries.last }
}
