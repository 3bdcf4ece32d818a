import RoutemapDomain
import RoutemapJSON
import RoutemapNavigation

/// The drawer screen, the tab bar's second tab: the device's cash drawer shift
/// (`ShiftsController`). With a shift open it shows what the drawer should hold, with controls to
/// pay cash in or out and to close the shift with the cash counted; with none, the last shift's
/// cash-up (over or short) and a control to open one. Each change answers `replace drawer`.
extension POSNavigation {
    /// `{currency, shift, lastClosedShift}`: `shift` the open shift as `GET /v1/shifts/current`
    /// answers it, else `null`; `lastClosedShift` then the most recently closed shift's report
    /// (`null` while one is open, or before the first).
    @Sendable static func drawerScreen(inputs: RouteInputs, context: ScreenContext) throws -> ScreenContent {
        let state = try context.drawer()
        let currency = context.currency
        var open: ShiftReport?, last: ShiftReport?
        switch state {
        case .open(let report): open = report
        case .closed(let report): last = report
        }
        let shift: JSON = try open.map { try ShiftsController.json($0, currency: currency) } ?? .null
        let lastClosed: JSON = try last.map { try ShiftsController.json($0, currency: currency) } ?? .null
        let payload: JSONObject = ["currency": .string(currency.rawValue), "shift": shift, "lastClosedShift": lastClosed]
        return ScreenContent(
            payload: .object(payload), actions: open == nil ? closedDrawerActions : openDrawerActions,
            components: { drawerComponents(state, currency) })
    }

    /// With no shift open: open one with the float the cashier enters.
    private static let closedDrawerActions = [
        ScreenAction(
            name: "openShift", method: "POST", path: "/v1/shifts", body: ["openingFloatMinor": "{value.openingFloatMinor}"], headers: keyed)
    ]

    /// With a shift open: cash paid in or out (an amount and a reason the cashier enters), and the
    /// close with the cash counted.
    private static let openDrawerActions = [
        movementAction("payIn", .payIn),
        movementAction("payOut", .payOut),
        ScreenAction(
            name: "closeShift", method: "POST", path: "/v1/shifts/current/close", body: ["countedCashMinor": "{value.countedCashMinor}"],
            headers: keyed),
    ]

    private static func movementAction(_ name: String, _ kind: DrawerMovement.Kind) -> ScreenAction {
        ScreenAction(
            name: name, method: "POST", path: "/v1/shifts/current/movements",
            body: ["kind": .string(kind.rawValue), "amountMinor": "{value.amountMinor}", "reason": "{value.reason}"], headers: keyed)
    }

    /// An open shift: its sums and what the drawer should hold, then "Pay in", "Pay out" and
    /// "Close shift". None open: the last shift's cash-up, if any, then "Open shift".
    static func drawerComponents(_ state: DrawerState, _ currency: Currency) -> [Component] {
        let money = { (minor: Int64) in MoneyText.format(minor, currency) }
        switch state {
        case .open(let report):
            return [
                .text("Shift open since \(report.shift.openedAt.wireText)", style: .caption),
                shiftRows(report, money),
                .button(title: "Pay in", action: "payIn", style: .secondary),
                .button(title: "Pay out", action: "payOut", style: .secondary),
                .button(title: "Close shift", action: "closeShift", style: .primary),
            ]
        case .closed(let last):
            var components: [Component] = [.text("No shift open.")]
            if let last, let closing = last.shift.closing, let variance = last.varianceMinor {
                let verdict = variance > 0 ? "Over" : variance < 0 ? "Short" : "Exact"
                components.append(.text("Last shift closed \(closing.closedAt.wireText)", style: .caption))
                components.append(shiftRows(last, money))
                components.append(
                    .section(
                        title: "Cash-up",
                        children: [
                            .row(title: "Counted", value: money(closing.countedCashMinor)),
                            .row(title: "Variance", detail: verdict, value: money(variance)),
                        ]))
            }
            components.append(.button(title: "Open shift", action: "openShift", style: .primary))
            return components
        }
    }

    /// The float, each sum with how many, and what the drawer should hold.
    private static func shiftRows(_ report: ShiftReport, _ money: (Int64) -> String) -> Component {
        let figures = report.figures
        func counted(_ title: String, _ totals: SalesReport.MethodTotals) -> Component {
            .row(title: title, detail: "\(totals.count)", value: money(totals.amountMinor))
        }
        return .section(
            title: "Drawer",
            children: [
                .row(title: "Opening float", value: money(report.shift.openingFloatMinor)),
                counted("Cash taken", figures.cashTaken),
                counted("Cash refunded", figures.cashRefunded),
                counted("Paid in", figures.payIns),
                counted("Paid out", figures.payOuts),
                .row(title: "Expected in drawer", value: money(report.expectedCashMinor)),
                counted("Card (not in drawer)", figures.cardTaken),
            ])
    }
}
