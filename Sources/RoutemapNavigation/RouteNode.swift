/// A route declared in a tree: the route, its payload builder and its children. The tree form
/// keeps the app's screen hierarchy readable in one place; each child's parent is the node it
/// is written in.
///
///     RouteRegistry<Context> {
///         RouteNode("tabBar", .root, screenType: "tabBar", title: "App") {
///             RouteNode("home", .tab, screenType: "home", title: "Home", payload: homeScreen)
///         }
///     }
public struct RouteNode<Context>: Sendable {
    public var route: Route
    public var payload: RouteRegistry<Context>.PayloadBuilder?
    /// The predicate of the route's guard, if it has one.
    public var guardPredicate: RouteRegistry<Context>.GuardPredicate?
    public var children: [RouteNode<Context>]

    /// A route with children, written in the trailing block.
    public init(
        _ id: RouteID, _ presentation: Presentation, screenType: String, title: String, renderer: Renderer = .native,
        offersDeclarative: Bool = false, slots: [String] = [], requires: [String] = [], callerSupplied: [String] = [],
        provides: [String] = [], deepLinks: [DeepLinkPattern] = [], fallback: RouteID? = nil,
        minimumAppVersion: AppVersion? = nil, guardedBy: GuardedBy<Context>? = nil, payload: RouteRegistry<Context>.PayloadBuilder? = nil,
        @RouteTreeBuilder<Context> children: () -> [RouteNode<Context>]
    ) {
        self.route = Route(
            id, parent: nil, presentation: presentation, screenType: screenType, title: title, renderer: renderer,
            offersDeclarative: offersDeclarative, slots: slots, requires: requires, callerSupplied: callerSupplied,
            provides: provides, deepLinks: deepLinks, fallback: fallback, minimumAppVersion: minimumAppVersion,
            routeGuard: guardedBy?.routeGuard)
        self.payload = payload
        self.guardPredicate = guardedBy?.holds
        self.children = children()
    }

    /// A route without children.
    public init(
        _ id: RouteID, _ presentation: Presentation, screenType: String, title: String, renderer: Renderer = .native,
        offersDeclarative: Bool = false, slots: [String] = [], requires: [String] = [], callerSupplied: [String] = [],
        provides: [String] = [], deepLinks: [DeepLinkPattern] = [], fallback: RouteID? = nil,
        minimumAppVersion: AppVersion? = nil, guardedBy: GuardedBy<Context>? = nil, payload: RouteRegistry<Context>.PayloadBuilder? = nil
    ) {
        self.init(
            id, presentation, screenType: screenType, title: title, renderer: renderer, offersDeclarative: offersDeclarative,
            slots: slots, requires: requires, callerSupplied: callerSupplied, provides: provides, deepLinks: deepLinks,
            fallback: fallback, minimumAppVersion: minimumAppVersion, guardedBy: guardedBy, payload: payload, children: Self.noChildren)
    }

    /// The children of a leaf (a plain function, so the tree builder does not transform it).
    private static func noChildren() -> [RouteNode<Context>] { [] }
}

/// Collects the `RouteNode`s written inside a registry or a node.
@resultBuilder
public enum RouteTreeBuilder<Context> {
    public static func buildBlock(_ components: [RouteNode<Context>]...) -> [RouteNode<Context>] { components.flatMap { $0 } }
    public static func buildExpression(_ node: RouteNode<Context>) -> [RouteNode<Context>] { [node] }
    public static func buildOptional(_ nodes: [RouteNode<Context>]?) -> [RouteNode<Context>] { nodes ?? [] }
    public static func buildEither(first nodes: [RouteNode<Context>]) -> [RouteNode<Context>] { nodes }
    public static func buildEither(second nodes: [RouteNode<Context>]) -> [RouteNode<Context>] { nodes }
    public static func buildArray(_ nodes: [[RouteNode<Context>]]) -> [RouteNode<Context>] { nodes.flatMap { $0 } }
}

extension RouteRegistry {
    /// A registry declared as a tree of `RouteNode`s.
    public init(@RouteTreeBuilder<Context> _ tree: () -> [RouteNode<Context>]) {
        self.init()
        for node in tree() { register(node, parent: nil) }
    }

    private mutating func register(_ node: RouteNode<Context>, parent: RouteID?) {
        var route = node.route
        route.parent = parent
        register(route, payload: node.payload, guard: node.guardPredicate)
        for child in node.children { register(child, parent: route.id) }
    }
}
