import RoutemapJSON

/// A screen as the client receives it inside a step: what to draw, with what data.
public struct Screen: Sendable, Hashable {
    /// The screen type the client implements (`native`) or the declarative screen's name.
    public var type: String
    public var renderer: Renderer
    public var title: String
    public var payload: JSON
    public var actions: [ScreenAction]
    /// The inputs the screen was shown with: the values of its route's `requires` and
    /// `provides`. The client copies them into the screen's stack entry, and fills action
    /// placeholders such as `{billId}` from them.
    public var inputs: RouteInputs

    public init(
        type: String, renderer: Renderer, title: String, payload: JSON, actions: [ScreenAction], inputs: RouteInputs = [:]
    ) {
        self.inputs = inputs
        self.type = type
        self.renderer = renderer
        self.title = title
        self.payload = payload
        self.actions = actions
    }
}
