/// One entry of the route registry: a screen the server can send a client to, and how it is
/// shown relative to its parent.
public struct Route: Sendable, Hashable {
    public var id: RouteID
    /// `nil` only for the root.
    public var parent: RouteID?
    public var presentation: Presentation
    /// The screen type a client draws for this route ("bill", "splitView").
    public var screenType: String
    public var title: String
    public var renderer: Renderer
    /// The slots this route offers its embedded children (a split view's `primary`, `secondary`).
    public var slots: [String]
    /// Inputs the route's payload needs ("billId").
    public var requires: [String]
    /// Inputs the route makes available to its descendants and to the actions of screens on
    /// display ("billId" from the bill screen).
    public var provides: [String]

    public init(
        _ id: RouteID, parent: RouteID?, presentation: Presentation, screenType: String, title: String,
        renderer: Renderer = .native, slots: [String] = [], requires: [String] = [], provides: [String] = []
    ) {
        self.id = id
        self.parent = parent
        self.presentation = presentation
        self.screenType = screenType
        self.title = title
        self.renderer = renderer
        self.slots = slots
        self.requires = requires
        self.provides = provides
    }
}
