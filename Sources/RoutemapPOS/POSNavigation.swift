import RoutemapAPI
import RoutemapDomain
import RoutemapJSON
import RoutemapNavigation

/// The point-of-sale app's route registry: every screen the server can send the client to, how
/// each is shown, and the builder of its payload, declared once, here.
/// `routemap routes` prints it; docs/navigation.md explains the fields.
enum POSNavigation {
    static func makeNavigator() -> Navigator<ScreenContext> {
        Navigator(registry: registry) { name, context in
            // The one input the server can derive unambiguously: the current bill, as launch
            // uses. Builders only read: with no current bill yet, the walk answers
            // `missing_input` and the endpoint opens one (as launch would) and walks again.
            name == POSInput.billId ? try context.bills.currentBill()?.id : nil
        }
    }

    static let registry = RouteRegistry<ScreenContext> {
        RouteNode(POSRoute.tabBar, .root, screenType: "tabBar", title: "routemap") {
            RouteNode(POSRoute.splitContainer, .tab, screenType: "splitView", title: "Order", slots: ["primary", "secondary"]) {
                RouteNode(
                    POSRoute.menu, .embed(slot: "primary"), screenType: "menu", title: "Menu", offersDeclarative: true,
                    deepLinks: ["routemap://menu"], payload: menuScreen
                ) {
                    RouteNode(
                        POSRoute.modifierSheet, .present(PresentationOptions(style: .sheet, inNavigationContainer: false)),
                        screenType: "modifierSheet", title: "Options", offersDeclarative: true,
                        requires: [POSInput.billId, POSInput.menuItemId], callerSupplied: [POSInput.billId, POSInput.menuItemId],
                        payload: modifierSheetScreen)
                }
                RouteNode(
                    POSRoute.bill, .embed(slot: "secondary"), screenType: "bill", title: "Bill", offersDeclarative: true,
                    requires: [POSInput.billId], callerSupplied: [POSInput.billId], provides: [POSInput.billId],
                    deepLinks: ["routemap://bills/{billId}"], payload: billScreen
                ) {
                    RouteNode(
                        POSRoute.orderSummary, .present(PresentationOptions(style: .modal, inNavigationContainer: true)),
                        screenType: "orderSummary", title: "Order summary", renderer: .declarative,
                        requires: [POSInput.billId], provides: [POSInput.billId], deepLinks: ["routemap://bills/{billId}/summary"],
                        guardedBy: checkedOutBill, payload: orderSummaryScreen)
                    RouteNode(
                        POSRoute.billList, .present(PresentationOptions(style: .popover, anchor: "showBills", inNavigationContainer: false)),
                        screenType: "billList", title: "Open bills", renderer: .declarative, deepLinks: ["routemap://bills"],
                        payload: billListScreen)
                }
            }
            // The cash drawer shift: a tab of its own, not part of the initial UI (launch shows the
            // Order tab); a walk `to` it selects it (POSDrawer.swift).
            RouteNode(
                POSRoute.drawer, .tab, screenType: "drawer", title: "Drawer", offersDeclarative: true, deepLinks: ["routemap://drawer"],
                payload: drawerScreen)
        }
    }

    /// The menu, with an "add" control on every row that posts to the bill beside it. Its
    /// component tree is built once with the menu (`MenuCatalog.screenComponents`).
    @Sendable static func menuScreen(inputs: RouteInputs, context: ScreenContext) throws -> ScreenContent {
        ScreenContent(payload: context.menu.screenPayload, actions: menuActions, components: context.menu.screenComponents)
    }

    // The screens' actions never change: built once, not on every request.

    private static let menuActions = [
        ScreenAction(
            name: "addItem", method: "POST", path: "/v1/bills/{billId}/items", row: "items",
            body: ["menuItemId": "{item.id}", "quantity": 1], headers: keyed),
        // The rows that name it (`"action": "chooseModifiers"`: items with modifier groups)
        // present their options first, for the bill beside the menu.
        ScreenAction(
            name: chooseModifiers, method: "POST", path: navigatePath, row: "items",
            body: [
                "from": [.string(POSRoute.tabBar.rawValue), .string(POSRoute.splitContainer.rawValue), .string(POSRoute.menu.rawValue)],
                "to": .string(POSRoute.modifierSheet.rawValue), "input": ["billId": "{billId}", "menuItemId": "{item.id}"],
            ]),
    ]

    /// The menu's action for an item with modifier groups, which its row names.
    static let chooseModifiers = "chooseModifiers"

    /// The bill; while it is open, controls to change or remove a line and to check out.
    @Sendable static func billScreen(inputs: RouteInputs, context: ScreenContext) throws -> ScreenContent {
        let bill = try context.bill(id: try required(POSInput.billId, in: inputs))
        return ScreenContent(
            payload: context.json(of: bill), actions: billActions(bill), inputs: [POSInput.billId: bill.id],
            components: { billComponents(bill) })
    }

    /// Every change a screen sends carries a fresh key per tap, so a retried tap applies once.
    static let keyed = ["Idempotency-Key": "{idempotencyKey}"]

    /// Where the navigation actions of point-of-sale screens send their walks: the app's own
    /// endpoint, not `/v1/navigate`, which serves whichever app the server lists first.
    static let navigatePath = POSApp.navigationPrefix + "/navigate"

    /// On every bill screen: open a new bill (the one on screen stays open, in the list), and
    /// show the device's open bills. The list is a walk from the split container (whatever has
    /// the focus) with the bill on screen as input.
    private static let everyBillActions = [
        ScreenAction(name: "newBill", method: "POST", path: "/v1/bills", headers: keyed),
        ScreenAction(
            name: "showBills", method: "POST", path: navigatePath,
            body: ["from": [.string(POSRoute.tabBar.rawValue), .string(POSRoute.splitContainer.rawValue)], "to": .string(POSRoute.billList.rawValue),
                   "input": ["billId": "{billId}"]]),
    ]

    /// On a bill not yet settled: void it, with a reason the cashier enters.
    static let voidAction = ScreenAction(
        name: "void", method: "POST", path: "/v1/bills/{billId}/void", body: ["reason": "{value.reason}"], headers: keyed)

    private static let openBillActions = [
        ScreenAction(
            name: "setQuantity", method: "PATCH", path: "/v1/bills/{billId}/items/{item.lineId}", row: "lines",
            body: ["quantity": "{value.quantity}"], headers: keyed),
        ScreenAction(name: "removeLine", method: "DELETE", path: "/v1/bills/{billId}/items/{item.lineId}", row: "lines", headers: keyed),
        // The line's note, which the cashier enters ("extra hot"); an empty one removes it.
        ScreenAction(
            name: "setNote", method: "PATCH", path: "/v1/bills/{billId}/items/{item.lineId}", row: "lines",
            body: ["note": "{value.note}"], headers: keyed),
        ScreenAction(name: "checkout", method: "POST", path: "/v1/bills/{billId}/checkout", headers: keyed),
        // A discount the cashier enters: a percentage in basis points or an amount (the one left
        // empty is left out), with a reason. It replaces the bill's discount, if any.
        ScreenAction(
            name: "setDiscount", method: "PUT", path: "/v1/bills/{billId}/discount",
            body: ["percentBps": "{value.percentBps}", "amountMinor": "{value.amountMinor}", "reason": "{value.reason}"], headers: keyed),
    ]

    /// On a bill not yet settled: name it ("Table 4"), with a label the cashier enters; an empty
    /// one is sent as `""`, which takes the label off.
    private static let setLabelAction = ScreenAction(
        name: "setLabel", method: "PUT", path: "/v1/bills/{billId}/label", body: ["label": "{value.label}"], headers: keyed)

    /// On a bill not yet settled, with a label: take it off.
    private static let removeLabelAction = ScreenAction(name: "removeLabel", method: "DELETE", path: "/v1/bills/{billId}/label", headers: keyed)

    /// The label's actions for `bill`: naming while it is unsettled, and removing while it has one.
    private static func labelActions(_ bill: Bill) -> [ScreenAction] {
        guard bill.status.isUnsettled else { return [] }
        return bill.label == nil ? [setLabelAction] : [setLabelAction, removeLabelAction]
    }

    /// On an open bill with a discount: take it off.
    private static let removeDiscountAction = ScreenAction(
        name: "removeDiscount", method: "DELETE", path: "/v1/bills/{billId}/discount", headers: keyed)

    /// The actions of the bill screen for `bill`, by its status (and its discount, while open,
    /// and its label, while unsettled).
    private static func billActions(_ bill: Bill) -> [ScreenAction] {
        switch bill.status {
        case .open: openBillActions + (bill.discount == nil ? [] : [removeDiscountAction]) + labelActions(bill) + everyBillActions + [voidAction]
        // A checked-out bill is paid, reopened or voided on its summary, whose steps the answers
        // start from: voiding it from a bill screen with no summary over it (a deep link) would
        // answer with a `dismiss orderSummary` the client cannot perform.
        // Its label may still change: the table waiting to pay is still one to tell apart.
        case .checkedOut: labelActions(bill) + everyBillActions
        case .paid, .voided: everyBillActions
        }
    }

    /// The order summary of a checked-out bill: its data, a component tree any client can draw,
    /// and controls to pay or go back to the bill.
    @Sendable static func orderSummaryScreen(inputs: RouteInputs, context: ScreenContext) throws -> ScreenContent {
        let bill = try context.bill(id: try required(POSInput.billId, in: inputs))
        var payload: JSONObject = ["billId": .string(bill.id)]
        // The bill's name, so the cashier sees whose bill is being paid; absent without one.
        if let label = bill.label { payload.append("label", .string(label)) }
        payload.append("lines", .array(bill.lines.map(\.json)))
        payload.appendTotals(of: bill)
        // Split tender: what earlier payments paid, what is still due (what "pay" sends), and
        // those payments, oldest first.
        payload.appendSettlement(of: bill)
        payload.append("payments", .array(bill.payments.map(\.json)))
        payload.append("currency", .string(bill.currency.rawValue))
        // Computed here so every client offers the same amounts, rounded as tax is.
        payload.append(
            "suggestedTips",
            .array(bill.suggestedTips(percents: context.suggestedTipPercents).map { ["percent": .int(Int64($0.percent)), "tipMinor": .int($0.tipMinor)] }))
        if let discount = bill.discount { payload.append("discount", discount.json) }
        // The guard shows the summary only for a checked-out bill; its actions say so again. A
        // partly paid bill is paid to the end: no cancel, no void (the server refuses both).
        let actions = bill.status != .checkedOut ? [] : bill.isPartlyPaid ? payActions : payActions + orderSummaryExits
        return ScreenContent(
            payload: .object(payload), actions: actions, inputs: [POSInput.billId: bill.id],
            components: { orderSummaryComponents(bill) })
    }

    /// Pay what is due, or a part of it the cashier enters (split tender: the bill stays on the
    /// order summary until its payments make its total).
    private static let payActions = [
        ScreenAction(
            name: "pay", method: "POST", path: "/v1/bills/{billId}/pay",
            // The tip is a value the cashier enters, as the tender is; left out (no tip) when none is.
            body: [
                "method": "{value.method}", "amountMinor": "{payload.dueMinor}", "tenderedMinor": "{value.tenderedMinor}",
                "tipMinor": "{value.tipMinor}",
            ],
            headers: keyed),
        ScreenAction(
            name: "payPart", method: "POST", path: "/v1/bills/{billId}/pay",
            body: [
                "method": "{value.method}", "amountMinor": "{value.amountMinor}", "partial": true, "tenderedMinor": "{value.tenderedMinor}",
                "tipMinor": "{value.tipMinor}",
            ],
            headers: keyed),
    ]

    private static let orderSummaryExits = [
        ScreenAction(name: "cancel", method: "POST", path: "/v1/bills/{billId}/checkout/cancel", headers: keyed),
        voidAction,
    ]

    /// The order summary's guard: shown only for a checked-out bill, so it never offers to pay
    /// a bill that cannot be paid (an open, empty one; a paid one).
    static let checkedOutBill = GuardedBy<ScreenContext>(
        RouteGuard(name: "billCheckedOut", code: "bill_not_checked_out", summary: "the bill is checked out")
    ) { inputs, context in
        try context.bill(id: try required(POSInput.billId, in: inputs)).status == .checkedOut
    }

    static func required(_ name: String, in inputs: RouteInputs) throws -> String {
        guard let value = inputs[name] else { throw NavigationInputMissing(name: name) }
        return value
    }
}

/// A payload builder ran without an input its route requires: a wiring bug, not a client error.
struct NavigationInputMissing: Error {
    let name: String
}
