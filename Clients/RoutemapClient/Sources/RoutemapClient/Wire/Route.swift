/// One route of the server's registry (`GET /v1/routes/{routeId}`, and each node of
/// `GET /v1/routes`): where it sits and how it is shown. `NavigationSession` reads the registry
/// when it starts, and again when the server's steps do not fit it, to place each step's route
/// on its stack.
public struct Route: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var id: RouteID
    /// The route it is shown in or over; nil for the root.
    public var parent: RouteID?
    public var presentation: RoutePresentation
    public var screenType: String
    public var title: String
    public var renderer: Renderer
    /// A native route that also has a declarative rendering.
    public var offersDeclarative: Bool
    /// Slots it offers embedded children.
    public var slots: [String]
    /// Inputs its payload needs.
    public var requires: [String]
    /// Required inputs the app sends (or the server derives) rather than an ancestor.
    public var callerSupplied: [String]
    /// Inputs it gives its descendants and the actions of screens on display.
    public var provides: [String]
    /// URL patterns that open it.
    public var deepLinks: [String]
    public var fallback: RouteID?
    public var minimumAppVersion: String?
    /// The precondition for showing it; a walk whose guard fails is 409 with the guard's code.
    public var routeGuard: RouteGuard?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, parent, presentation, screenType, title, renderer, offersDeclarative, slots, requires, callerSupplied, provides, deepLinks,
            fallback, minimumAppVersion
        case routeGuard = "guard"
    }

    public init(
        id: RouteID, parent: RouteID?, presentation: RoutePresentation, screenType: String, title: String, renderer: Renderer,
        offersDeclarative: Bool = false, slots: [String] = [], requires: [String] = [], callerSupplied: [String] = [], provides: [String] = [],
        deepLinks: [String] = [], fallback: RouteID? = nil, minimumAppVersion: String? = nil, routeGuard: RouteGuard? = nil
    ) {
        self.id = id
        self.parent = parent
        self.presentation = presentation
        self.screenType = screenType
        self.title = title
        self.renderer = renderer
        self.offersDeclarative = offersDeclarative
        self.slots = slots
        self.requires = requires
        self.callerSupplied = callerSupplied
        self.provides = provides
        self.deepLinks = deepLinks
        self.fallback = fallback
        self.minimumAppVersion = minimumAppVersion
        self.routeGuard = routeGuard
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        // `parent` is required, and null for the root.
        guard container.contains(.parent) else {
            throw DecodingError.keyNotFound(CodingKeys.parent, .init(codingPath: container.codingPath, debugDescription: "parent is required"))
        }
        parent = try container.decodeIfPresent(String.self, forKey: .parent)
        presentation = try container.decode(RoutePresentation.self, forKey: .presentation)
        screenType = try container.decode(String.self, forKey: .screenType)
        title = try container.decode(String.self, forKey: .title)
        renderer = try container.decode(Renderer.self, forKey: .renderer)
        offersDeclarative = try container.decode(Bool.self, forKey: .offersDeclarative)
        slots = try container.decode([String].self, forKey: .slots)
        requires = try container.decode([String].self, forKey: .requires)
        callerSupplied = try container.decode([String].self, forKey: .callerSupplied)
        provides = try container.decode([String].self, forKey: .provides)
        deepLinks = try container.decode([String].self, forKey: .deepLinks)
        fallback = try container.decodeIfPresent(String.self, forKey: .fallback)
        minimumAppVersion = try container.decodeIfPresent(String.self, forKey: .minimumAppVersion)
        routeGuard = try container.decodeIfPresent(RouteGuard.self, forKey: .routeGuard)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(parent, forKey: .parent)  // null for the root
        try container.encode(presentation, forKey: .presentation)
        try container.encode(screenType, forKey: .screenType)
        try container.encode(title, forKey: .title)
        try container.encode(renderer, forKey: .renderer)
        try container.encode(offersDeclarative, forKey: .offersDeclarative)
        try container.encode(slots, forKey: .slots)
        try container.encode(requires, forKey: .requires)
        try container.encode(callerSupplied, forKey: .callerSupplied)
        try container.encode(provides, forKey: .provides)
        try container.encode(deepLinks, forKey: .deepLinks)
        try container.encodeIfPresent(fallback, forKey: .fallback)
        try container.encodeIfPresent(minimumAppVersion, forKey: .minimumAppVersion)
        try container.encodeIfPresent(routeGuard, forKey: .routeGuard)
    }
}

/// A route's precondition (`guard` of a route): shown only when it holds.
public struct RouteGuard: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var name: String
    /// The problem `code` of a walk whose guard fails.
    public var code: String
    /// When the route is shown, in words.
    public var summary: String

    enum CodingKeys: String, CodingKey, CaseIterable { case name, code, summary }
}

/// A route and the routes under it (`GET /v1/routes`).
public struct RouteTree: Sendable, Hashable, Codable {
    public var route: Route
    public var children: [RouteTree]

    private enum CodingKeys: String, CodingKey { case children }

    public init(from decoder: any Decoder) throws {
        route = try Route(from: decoder)
        children = try decoder.container(keyedBy: CodingKeys.self).decode([RouteTree].self, forKey: .children)
    }

    public func encode(to encoder: any Encoder) throws {
        try route.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(children, forKey: .children)
    }

    /// This route and every route under it, parents before children, in registration order.
    public var allRoutes: [Route] { [route] + children.flatMap(\.allRoutes) }
}

/// A route and the ids of its children (`GET /v1/routes/{routeId}`).
public struct RouteDetail: Sendable, Hashable, Codable {
    public var route: Route
    public var children: [RouteID]

    private enum CodingKeys: String, CodingKey { case children }

    public init(from decoder: any Decoder) throws {
        route = try Route(from: decoder)
        children = try decoder.container(keyedBy: CodingKeys.self).decode([RouteID].self, forKey: .children)
    }

    public func encode(to encoder: any Encoder) throws {
        try route.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(children, forKey: .children)
    }
}

/// `GET /v1/routes`.
public struct RouteTreeAnswer: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var root: RouteTree

    enum CodingKeys: String, CodingKey, CaseIterable { case root }
}

/// How a route is shown relative to its parent (named by `kind` on the wire).
public enum RoutePresentation: Sendable, Hashable, Codable {
    case root
    case tab
    case push
    case embed(slot: String)
    case present(PresentationOptions)
    /// A kind a newer server declares.
    case unknown(kind: String)

    /// The `kind` member of each known presentation.
    public static let knownKinds = ["root", "tab", "push", "embed", "present"]

    private enum CodingKeys: String, CodingKey { case kind, slot }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "root": self = .root
        case "tab": self = .tab
        case "push": self = .push
        case "embed": self = .embed(slot: try container.decode(String.self, forKey: .slot))
        case "present": self = .present(try PresentationOptions(from: decoder))
        default: self = .unknown(kind: kind)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .root: try container.encode("root", forKey: .kind)
        case .tab: try container.encode("tab", forKey: .kind)
        case .push: try container.encode("push", forKey: .kind)
        case .embed(let slot):
            try container.encode("embed", forKey: .kind)
            try container.encode(slot, forKey: .slot)
        case .present(let options):
            try container.encode("present", forKey: .kind)
            try options.encode(to: encoder)
        case .unknown(let kind): try container.encode(kind, forKey: .kind)
        }
    }
}
