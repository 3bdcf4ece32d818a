import RoutemapJSON

/// What a route's payload builder returns: the screen's data and the actions its controls send.
public struct ScreenContent: Sendable {
    public var payload: JSON
    public var actions: [ScreenAction]
    /// Values of the inputs the route provides (`billId` of the bill on screen). The screen's
    /// `inputs` are these (for the names the route declares in `provides`) and the values of the
    /// inputs it requires; clients fill action placeholders such as `{billId}` from them.
    public var inputs: RouteInputs
    /// Builds the screen as a component tree (docs/navigation.md, "Declarative screens"): called
    /// only when the tree is sent, always for a declarative route and for a native one only to a
    /// client lacking its native screen, so a client drawing it natively pays nothing for it.
    public var components: (@Sendable () -> [Component])?

    public init(
        payload: JSON = .object(JSONObject()), actions: [ScreenAction] = [], inputs: RouteInputs = [:],
        components: (@Sendable () -> [Component])? = nil
    ) {
        self.payload = payload
        self.actions = actions
        self.inputs = inputs
        self.components = components
    }
}
