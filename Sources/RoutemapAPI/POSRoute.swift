import RoutemapNavigation

/// The route ids of the point-of-sale app. Clients keep these in their stacks: never rename one.
public enum POSRoute {
    public static let tabBar: RouteID = "tabBar"
    public static let splitContainer: RouteID = "splitContainer"
    public static let menu: RouteID = "menu"
    public static let bill: RouteID = "bill"
    public static let orderSummary: RouteID = "orderSummary"
}

/// Names of the navigation inputs POS routes require and provide.
enum POSInput {
    static let billId = "billId"
}

extension NavigationStack {
    /// The bill in focus beside the menu: where item changes and checkout start.
    static let posBill = NavigationStack(routes: [POSRoute.tabBar, POSRoute.splitContainer, POSRoute.bill])
    /// The order summary over the bill: where cancel and pay start.
    static let posOrderSummary = NavigationStack(routes: [POSRoute.tabBar, POSRoute.splitContainer, POSRoute.bill, POSRoute.orderSummary])
}
