/// One thing the client does, in order, to follow a navigation.
public struct Step: Sendable, Hashable {
    public var op: StepOperation
    /// The route acted on; for `dismiss` and `pop` the one removed, for `popTo` the one left on top.
    public var route: RouteID
    public var animated: Bool
    /// Whether a `push` or `present` opens the route with mode `sub`: over whatever is on top,
    /// not under its registered parent (the stack entry it adds is a `sub` entry).
    public var sub: Bool
    /// The container slot, for `embed`.
    public var slot: String?
    /// The root's tabs, for `setRoot` of a tab container.
    public var tabs: [Tab]?
    /// How to present, for `present`.
    public var presentation: PresentationOptions?
    /// What to show, for steps that show a screen.
    public var screen: Screen?

    public init(
        op: StepOperation, route: RouteID, animated: Bool, sub: Bool = false, slot: String? = nil, tabs: [Tab]? = nil,
        presentation: PresentationOptions? = nil, screen: Screen? = nil
    ) {
        self.op = op
        self.route = route
        self.animated = animated
        self.sub = sub
        self.slot = slot
        self.tabs = tabs
        self.presentation = presentation
        self.screen = screen
    }
}
