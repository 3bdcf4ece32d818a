import RoutemapDomain
import RoutemapJSON
import RoutemapNavigation

/// The point-of-sale app's route registry: every screen the server can send the client to, how
/// each is shown, and the builder of its payload — declared once, here (seed 000's `RouteMap`).
///
///     tabBar (root)
///     └─ splitContainer (tab; slots primary, secondary)
///        ├─ menu (embed primary)
///        └─ bill (embed secondary; provides billId)
///           └─ orderSummary (present modal, in a navigation container)
enum POSNavigation {
    static func makeNavigator() -> Navigator<ScreenContext> {
        Navigator(registry: makeRegistry())
    }

    static func makeRegistry() -> RouteRegistry<ScreenContext> {
        var registry = RouteRegistry<ScreenContext>()
        registry.register(Route(POSRoute.tabBar, parent: nil, presentation: .root, screenType: "tabBar", title: "routemap"))
        registry.register(
            Route(
                POSRoute.splitContainer, parent: POSRoute.tabBar, presentation: .tab, screenType: "splitView",
                title: "Order", slots: ["primary", "secondary"]))
        registry.register(
            Route(POSRoute.menu, parent: POSRoute.splitContainer, presentation: .embed(slot: "primary"), screenType: "menu", title: "Menu"),
            payload: menuScreen)
        registry.register(
            Route(
                POSRoute.bill, parent: POSRoute.splitContainer, presentation: .embed(slot: "secondary"), screenType: "bill",
                title: "Bill", requires: [POSInput.billId], provides: [POSInput.billId]),
            payload: billScreen)
        registry.register(
            Route(
                POSRoute.orderSummary, parent: POSRoute.bill,
                presentation: .present(PresentationOptions(style: .modal, inNavigationContainer: true)),
                screenType: "orderSummary", title: "Order summary", requires: [POSInput.billId]),
            payload: orderSummaryScreen)
        return registry
    }

    /// The menu, with an "add" control on every row that posts to the bill beside it.
    @Sendable static func menuScreen(inputs: RouteInputs, context: ScreenContext) throws -> ScreenContent {
        ScreenContent(
            payload: context.menu.screenPayload,
            actions: [
                ScreenAction(
                    name: "addItem", method: "POST", path: "/v1/bills/{billId}/items", row: "items",
                    body: ["menuItemId": "{item.id}", "quantity": 1])
            ])
    }

    /// The bill; while it is open, controls to change or remove a line and to check out.
    @Sendable static func billScreen(inputs: RouteInputs, context: ScreenContext) throws -> ScreenContent {
        let bill = try context.bill(id: try required(POSInput.billId, in: inputs))
        let actions: [ScreenAction] =
            bill.status == .open
            ? [
                ScreenAction(
                    name: "setQuantity", method: "PATCH", path: "/v1/bills/{billId}/items/{item.lineId}", row: "lines",
                    body: ["quantity": "{value.quantity}"]),
                ScreenAction(name: "removeLine", method: "DELETE", path: "/v1/bills/{billId}/items/{item.lineId}", row: "lines"),
                ScreenAction(name: "checkout", method: "POST", path: "/v1/bills/{billId}/checkout"),
            ]
            : []
        return ScreenContent(payload: bill.json, actions: actions, inputs: [POSInput.billId: bill.id])
    }

    /// The order summary of a checked-out bill, with controls to pay or go back to the bill.
    @Sendable static func orderSummaryScreen(inputs: RouteInputs, context: ScreenContext) throws -> ScreenContent {
        let bill = try context.bill(id: try required(POSInput.billId, in: inputs))
        let payload: JSON = [
            "billId": .string(bill.id),
            "lines": .array(bill.lines.map(\.json)),
            "subtotalMinor": .int(bill.subtotalMinor),
            "taxMinor": .int(bill.taxMinor),
            "totalMinor": .int(bill.totalMinor),
            "currency": .string(bill.currency.rawValue),
        ]
        return ScreenContent(
            payload: payload,
            actions: [
                ScreenAction(
                    name: "pay", method: "POST", path: "/v1/bills/{billId}/pay",
                    body: ["method": "{value.method}", "amountMinor": "{payload.totalMinor}", "tenderedMinor": "{value.tenderedMinor}"]),
                ScreenAction(name: "cancel", method: "POST", path: "/v1/bills/{billId}/checkout/cancel"),
            ])
    }

    private static func required(_ name: String, in inputs: RouteInputs) throws -> String {
        guard let value = inputs[name] else { throw NavigationInputMissing(name: name) }
        return value
    }
}

/// A payload builder ran without an input its route requires: a wiring bug, not a client error.
struct NavigationInputMissing: Error {
    let name: String
}
