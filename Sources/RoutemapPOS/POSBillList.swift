import RoutemapDomain
import RoutemapJSON
import RoutemapNavigation

/// The bill list screen: the device's open and checked-out bills, newest first, each with a
/// control to make it the current bill (resume).
extension POSNavigation {
    /// How many bills the screen lists (`GET /v1/bills` pages through all of them).
    static let billListScreenSize = 50

    @Sendable static func billListScreen(inputs: RouteInputs, context: ScreenContext) throws -> ScreenContent {
        let page = try context.bills.bills(statuses: [.open, .checkedOut], after: nil, limit: billListScreenSize)
        let current = try context.bills.currentBill()?.id
        return ScreenContent(
            payload: BillListJSON.page(page, current: current), actions: billListActions,
            components: { billListComponents(page.bills, current: current) })
    }

    private static let billListActions = [
        ScreenAction(name: "resume", method: "POST", path: "/v1/bills/{item.id}/resume", row: "bills", headers: keyed)
    ]

    /// A row per bill (its label, else its id's end; status, lines, total), then "Resume" for
    /// each but the current one. A labelled bill's row also shows its id's end: labels are not
    /// unique, so two "Table 4" rows still differ.
    static func billListComponents(_ bills: [Bill], current: String?) -> [Component] {
        guard !bills.isEmpty else { return [.text("No open bills.")] }
        return bills.map { bill in
            let shortId = "Bill …\(bill.id.suffix(6))"
            let name = bill.label ?? shortId
            let summary = "\(statusText(bill.status)) · \(bill.lines.count) line\(bill.lines.count == 1 ? "" : "s")"
            var children: [Component] = [
                .row(
                    title: name, detail: bill.label == nil ? summary : "\(shortId) · \(summary)",
                    value: MoneyText.format(bill.totalMinor, bill.currency))
            ]
            if bill.id == current {
                children.append(.text("Current bill", style: .caption))
            } else {
                children.append(.button(title: "Resume \(name)", action: "resume", style: .secondary, item: ["id": .string(bill.id)]))
            }
            return .section(title: nil, children: children)
        }
    }
}

/// The wire shapes of bill lists (openapi.yaml's `BillList` and `BillListEntry`).
enum BillListJSON {
    /// `{bills, nextCursor?}`.
    static func page(_ page: BillPage, current: String?) -> JSON {
        var object: JSONObject = ["bills": .array(page.bills.map { entry($0, current: $0.id == current) })]
        if let next = page.nextCursor { object.append("nextCursor", .string(next)) }
        return .object(object)
    }

    /// A bill without its lines: what a list shows, its totals as the bill's own answer has them
    /// (its discount included).
    static func entry(_ bill: Bill, current: Bool) -> JSON {
        var object: JSONObject = ["id": .string(bill.id)]
        // What a cashier finds the bill by; absent without one.
        if let label = bill.label { object.append("label", .string(label)) }
        object.append("status", .string(bill.status.rawValue))
        object.append("lineCount", .int(Int64(bill.lines.count)))
        object.appendTotals(of: bill)
        object.append("currency", .string(bill.currency.rawValue))
        object.append("createdAt", .string(bill.createdAt.wireText))
        object.append("current", .bool(current))
        return .object(object)
    }
}
