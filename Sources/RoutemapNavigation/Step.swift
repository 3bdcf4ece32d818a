/// One thing the client does, in order, to follow a navigation.
public struct Step: Sendable, Hashable {
    public var op: StepOperation
    /// The route acted on; for `dismiss` and `pop` the one removed, for `popTo` the one left on top.
    public var route: RouteID
    public var animated: Bool
    /// The container slot, for `embed`.
    public var slot: String?
    /// The root's tabs, for `setRoot` of a tab container.
    public var tabs: [Tab]?
    /// How to present, for `present`.
    public var presentation: PresentationOptions?
    /// What to show, for steps that show a screen.
    public var screen: Screen?

    public init(
        op: StepOperation, route: RouteID, animated: Bool, slot: String? = nil, tabs: [Tab]? = nil,
        presentation: PresentationOptions? = nil, screen: Screen? = nil
    ) {
        self.op = op
        self.route = route
        self.animated = animated
        self.slot = slot
        self.tabs = tabs
        self.presentation = presentation
        self.screen = screen
    }
}
