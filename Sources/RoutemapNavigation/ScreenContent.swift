import RoutemapJSON

/// What a route's payload builder returns: the screen's data and the actions its controls send.
public struct ScreenContent: Sendable, Hashable {
    public var payload: JSON
    public var actions: [ScreenAction]
    /// Values of the inputs the route provides (`billId` of the bill on screen): clients fill
    /// action placeholders such as `{billId}` from them.
    public var inputs: RouteInputs

    public init(payload: JSON = .object(JSONObject()), actions: [ScreenAction] = [], inputs: RouteInputs = [:]) {
        self.payload = payload
        self.actions = actions
        self.inputs = inputs
    }
}
