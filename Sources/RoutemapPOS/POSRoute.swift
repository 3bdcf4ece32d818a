import RoutemapNavigation

/// The route ids of the point-of-sale app. Clients keep these in their stacks: never rename one.
public enum POSRoute {
    public static let tabBar: RouteID = "tabBar"
    public static let splitContainer: RouteID = "splitContainer"
    public static let menu: RouteID = "menu"
    public static let bill: RouteID = "bill"
    public static let orderSummary: RouteID = "orderSummary"
    public static let billList: RouteID = "billList"
    /// The options of one menu item (milk, extras), presented over the menu before adding it.
    public static let modifierSheet: RouteID = "modifierSheet"
    /// The device's cash drawer shift: the tab bar's second tab.
    public static let drawer: RouteID = "drawer"
}

/// Names of the navigation inputs POS routes require and provide.
enum POSInput {
    static let billId = "billId"
    /// The menu item whose options the modifier sheet shows.
    static let menuItemId = "menuItemId"
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

    /// The modifier sheet of item `menuItemId`, for bill `billId`, over the menu: where an add
    /// with modifiers starts.
    static func posModifierSheet(billId: String, menuItemId: String) -> NavigationStack {
        NavigationStack([
            StackEntry(POSRoute.tabBar), StackEntry(POSRoute.splitContainer), StackEntry(POSRoute.menu),
            StackEntry(POSRoute.modifierSheet, inputs: [POSInput.billId: billId, POSInput.menuItemId: menuItemId]),
        ])
    }

    /// The order summary of bill `billId` over that bill: where cancel and pay start.
    static func posOrderSummary(_ billId: String) -> NavigationStack {
        NavigationStack(posBill(billId).entries + [StackEntry(POSRoute.orderSummary, inputs: [POSInput.billId: billId])])
    }
}
