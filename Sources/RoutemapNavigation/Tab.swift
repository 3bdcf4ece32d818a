/// One tab of a root tab container, as listed in a `setRoot` step.
public struct Tab: Sendable, Hashable {
    public var route: RouteID
    public var title: String

    public init(route: RouteID, title: String) {
        self.route = route
        self.title = title
    }
}
