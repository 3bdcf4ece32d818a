/// One thing the app does, in order, to follow a navigation (docs/navigation.md, "Steps").
public struct Step: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var op: StepOperation
    /// The route acted on; for `dismiss` and `pop` the one removed, for `popTo` the one left on top.
    public var route: RouteID
    public var animated: Bool
    /// For `embed`: the container's slot (`primary`, `secondary`).
    public var slot: String?
    /// The tabs of the route shown, in order, on a step that shows a route with tabs.
    public var tabs: [Tab]?
    /// For `present`: how.
    public var presentation: PresentationOptions?
    /// What to show; every step but `dismiss`, `pop` and `popTo` has one.
    public var screen: Screen?
    /// True on a step that opens the target of a `sub` walk: it goes over whatever is on top.
    public var sub: Bool?

    public init(
        op: StepOperation, route: RouteID, animated: Bool = false, slot: String? = nil, tabs: [Tab]? = nil,
        presentation: PresentationOptions? = nil, screen: Screen? = nil, sub: Bool? = nil
    ) {
        self.op = op
        self.route = route
        self.animated = animated
        self.slot = slot
        self.tabs = tabs
        self.presentation = presentation
        self.screen = screen
        self.sub = sub
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case op, route, animated, slot, tabs, presentation, screen, sub }

    /// Whether the step opens a `sub` entry.
    public var opensSub: Bool { sub ?? false }
}

/// A tab of a tab container.
public struct Tab: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var route: RouteID
    public var title: String

    public init(route: RouteID, title: String) {
        self.route = route
        self.title = title
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case route, title }
}

/// How a `present` step shows its route.
public struct PresentationOptions: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var style: PresentationStyle
    /// Where a popover points.
    public var anchor: String?
    /// Whether the app wraps the route in a navigation container (a `UINavigationController`).
    public var inNavigationContainer: Bool

    public init(style: PresentationStyle, anchor: String? = nil, inNavigationContainer: Bool) {
        self.style = style
        self.anchor = anchor
        self.inNavigationContainer = inNavigationContainer
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case style, anchor, inNavigationContainer }
}
