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
