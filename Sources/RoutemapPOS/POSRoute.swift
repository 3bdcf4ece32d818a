import RoutemapNavigation

/// The route ids of the point-of-sale app. Clients keep these in their stacks: never rename one.
public enum POSRoute {
    public static let tabBar: RouteID = "tabBar"
    public static let splitContainer: RouteID = "splitContainer"
    public static let menu: RouteID = "menu"
    public static let bill: RouteID = "bill"
    public static let orderSummary: RouteID = "orderSummary"
    public static let billList: RouteID = "billList"
}

/// Names of the navigation inputs POS routes require and provide.
enum POSInput {
    static let billId = "billId"
}

extension NavigationStack {
    /// Bill `billId` in focus beside the menu: where checkout starts.
    static func posBill(_ billId: String) -> NavigationStack {
        NavigationStack([
            StackEntry(POSRoute.tabBar), StackEntry(POSRoute.splitContainer), StackEntry(POSRoute.bill, inputs: [POSInput.billId: billId]),
        ])
    }

    /// The bill list over the bill screen, which shows a bill the server does not know: where
    /// resuming starts.
    static var posBillList: NavigationStack {
        NavigationStack([StackEntry(POSRoute.tabBar), StackEntry(POSRoute.splitContainer), StackEntry(POSRoute.bill), StackEntry(POSRoute.billList)])
    }

    /// The order summary of bill `billId` over that bill: where cancel and pay start.
    static func posOrderSummary(_ billId: String) -> NavigationStack {
        NavigationStack(posBill(billId).entries + [StackEntry(POSRoute.orderSummary, inputs: [POSInput.billId: billId])])
    }
}
