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
    /// Whether a declarative rendering (`components`) exists: true for every declarative route,
    /// and for a native route whose builder also returns components for clients without its
    /// native screen. A client can always be sent a route that offers one.
    public var offersDeclarative: Bool
    /// The slots this route offers its embedded children (a split view's `primary`, `secondary`).
    public var slots: [String]
    /// Inputs the route's payload needs ("billId"). Each comes from an ancestor that provides
    /// it, or from the caller when it is also listed in `callerSupplied`.
    public var requires: [String]
    /// Required inputs the client sends (or the server derives) rather than an ancestor.
    public var callerSupplied: [String]
    /// Inputs the route makes available to its descendants and to the actions of screens on
    /// display ("billId" from the bill screen).
    public var provides: [String]
    /// App URLs that open this route, such as `routemap://bills/{billId}/summary`;
    /// placeholders become inputs.
    public var deepLinks: [DeepLinkPattern]
    /// The route whose screen is shown instead when a client can draw neither this route's
    /// native screen nor a declarative rendering of it.
    public var fallback: RouteID?
    /// The oldest app version with this route's native screen; older apps get the fallback.
    public var minimumAppVersion: AppVersion?
    /// A precondition: a walk that would show this route while it fails is refused.
    public var routeGuard: RouteGuard?

    public init(
        _ id: RouteID, parent: RouteID?, presentation: Presentation, screenType: String, title: String,
        renderer: Renderer = .native, offersDeclarative: Bool = false, slots: [String] = [], requires: [String] = [], callerSupplied: [String] = [],
        provides: [String] = [], deepLinks: [DeepLinkPattern] = [], fallback: RouteID? = nil,
        minimumAppVersion: AppVersion? = nil, routeGuard: RouteGuard? = nil
    ) {
        self.id = id
        self.parent = parent
        self.presentation = presentation
        self.screenType = screenType
        self.title = title
        self.renderer = renderer
        self.offersDeclarative = offersDeclarative || renderer == .declarative
        self.slots = slots
        self.requires = requires
        self.callerSupplied = callerSupplied
        self.provides = provides
        self.deepLinks = deepLinks
        self.fallback = fallback
        self.minimumAppVersion = minimumAppVersion
        self.routeGuard = routeGuard
    }
}
