/// How a route is shown relative to its parent.
public enum Presentation: Sendable, Hashable {
    /// The one route at the top of the tree, installed with `setRoot`.
    case root
    /// One tab of a tab container, brought forward with `selectTab`.
    case tab
    /// A child shown inside a named slot of its container (a split view's `primary`).
    case embed(slot: String)
    /// Pushed onto its parent's navigation stack.
    case push
    /// Presented over its parent.
    case present(PresentationOptions)
}

/// The visual style of a presented route.
public enum PresentationStyle: String, Sendable, Hashable, CaseIterable {
    case modal
    case sheet
    case fullScreen
    case popover
}

/// How a `present`ed route appears: its style, where a popover points, and whether the client
/// wraps it in a navigation container (so it can push further screens and show a title bar).
public struct PresentationOptions: Sendable, Hashable {
    public var style: PresentationStyle
    public var anchor: String?
    public var inNavigationContainer: Bool

    public init(style: PresentationStyle, anchor: String? = nil, inNavigationContainer: Bool = false) {
        self.style = style
        self.anchor = anchor
        self.inNavigationContainer = inNavigationContainer
    }
}
