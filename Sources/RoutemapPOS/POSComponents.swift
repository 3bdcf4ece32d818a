import RoutemapDomain
import RoutemapJSON
import RoutemapNavigation

/// The point-of-sale screens as component trees (docs/navigation.md, "Declarative screens"):
/// what a client without a native screen for a route draws with its generic renderer. Every
/// button names one of its screen's actions (POSNavigation); a button acting on one row gives
/// the row's `item`, and the `values` it supplies.
extension POSNavigation {
    /// The menu by category: a button per available item that adds it to the bill, a row saying
    /// so for each unavailable one. Built once, with the menu (`MenuCatalog`).
    /// `names` gives sections their categories' names (else the id, capitalized).
    static func menuComponents(_ items: [MenuItem], names: [String: String] = [:]) -> [Component] {
        var categories: [String] = []
        for item in items where !categories.contains(item.category) { categories.append(item.category) }
        return categories.map { category in
            .section(
                title: names[category] ?? category.prefix(1).uppercased() + category.dropFirst(),
                children: items.filter { $0.category == category }.map { item in
                    guard item.available else { return .row(title: item.name, value: "Unavailable") }
                    guard !item.isSoldOut else { return .row(title: item.name, value: "Sold out") }
                    // An item with modifier groups presents them first; a counted one says how many are left.
                    let left = item.stock.map { " · \($0) left" } ?? ""
                    return .button(
                        title: "\(item.name) · \(MoneyText.format(item.priceMinor, item.currency))\(left)\(item.hasModifiers ? " …" : "")",
                        action: item.hasModifiers ? chooseModifiers : "addItem", style: .secondary, item: ["id": .string(item.id)])
                })
        }
    }

    /// The bill: its label (if any) as a headline, its status and id, its lines (each with its
    /// note under it) and totals; while it is open, "−1", "+1", "Note" and "Remove" under each
    /// line (no "−1" at quantity 1: removing is the way to none; the note is entered beside its
    /// button) and, with lines, a checkout button; then "New bill", "Open bills", while it is
    /// unsettled "Name bill" (or "Rename bill" and "Remove name"), and, while it is open, the
    /// discount's buttons and "Void bill" (a checked-out bill is voided on its summary).
    static func billComponents(_ bill: Bill) -> [Component] {
        let money = { (minor: Int64) in MoneyText.format(minor, bill.currency) }
        let open = bill.status == .open
        var lines: [Component] = []
        for line in bill.lines {
            lines += lineRows(line, money)
            guard open else { continue }
            let item: JSONObject = ["lineId": .string(line.lineId)]
            if line.quantity > 1 {
                lines.append(
                    .button(
                        title: "−1 \(line.name)", action: "setQuantity", style: .secondary, item: item,
                        values: ["quantity": .int(Int64(line.quantity - 1))]))
            }
            lines.append(
                .button(
                    title: "+1 \(line.name)", action: "setQuantity", style: .secondary, item: item,
                    values: ["quantity": .int(Int64(line.quantity + 1))]))
            lines.append(.button(title: "\(line.note == nil ? "Note" : "Change note") for \(line.name)", action: "setNote", style: .secondary, item: item))
            lines.append(.button(title: "Remove \(line.name)", action: "removeLine", style: .destructive, item: item))
        }
        var components: [Component] = labelHeadline(of: bill) + [
            .text("\(statusText(bill.status)) · \(bill.id)", style: .caption),
            lines.isEmpty ? .text("No items yet.") : .section(title: "Items", children: lines),
            .divider,
            totals(of: bill, money),
        ]
        if open && !bill.lines.isEmpty { components.append(.button(title: "Check out \(money(bill.totalMinor))", action: "checkout", style: .primary)) }
        components.append(.button(title: "New bill", action: "newBill", style: .secondary))
        components.append(.button(title: "Open bills", action: "showBills", style: .secondary))
        // The label is entered beside the button; an empty one takes it off.
        if bill.status.isUnsettled {
            components.append(.button(title: bill.label == nil ? "Name bill" : "Rename bill", action: "setLabel", style: .secondary))
            if bill.label != nil { components.append(.button(title: "Remove name", action: "removeLabel", style: .secondary)) }
        }
        // The discount's percentage or amount and reason are entered beside the button.
        if open { components.append(.button(title: bill.discount == nil ? "Discount" : "Change discount", action: "setDiscount", style: .secondary)) }
        if open && bill.discount != nil { components.append(.button(title: "Remove discount", action: "removeDiscount", style: .secondary)) }
        if open { components.append(.button(title: "Void bill", action: "void", style: .destructive)) }
        return components
    }

    /// The checked-out bill's label (if any), lines and totals, with buttons to pay, go back to the bill or void it.
    static func orderSummaryComponents(_ bill: Bill) -> [Component] {
        let money = { (minor: Int64) in MoneyText.format(minor, bill.currency) }
        return labelHeadline(of: bill) + [
            .section(
                title: "Items",
                children: bill.lines.flatMap { lineRows($0, money) }),
            .divider,
            totals(of: bill, money),
        ] + paymentRows(of: bill, money) + (bill.status != .checkedOut ? [] : [
            .button(title: "Pay \(money(bill.dueMinor))", action: "pay", style: .primary),
            .button(title: "Pay part", action: "payPart", style: .secondary),
        ] + (bill.isPartlyPaid ? [] : [
            .button(title: "Back to bill", action: "cancel", style: .secondary),
            .button(title: "Void bill", action: "void", style: .destructive),
        ]))
    }

    /// The bill's label as the screen's headline; nothing for a bill without one.
    private static func labelHeadline(of bill: Bill) -> [Component] {
        bill.label.map { [.text($0, style: .headline)] } ?? []
    }

    /// A partly paid bill's payments (one row each: method, receipt number, amount) and what is
    /// still due; nothing for a bill without payments.
    private static func paymentRows(of bill: Bill, _ money: (Int64) -> String) -> [Component] {
        guard !bill.payments.isEmpty else { return [] }
        return [
            .section(
                title: "Paid",
                children: bill.payments.map {
                    .row(title: $0.method == .cash ? "Cash" : "Card", detail: "Receipt \($0.receiptNumber)", value: money($0.amountMinor))
                } + [.row(title: "Due", value: money(bill.dueMinor))])
        ]
    }

    /// A line: `2 × Latte`, its options (if any) and unit price, its total; then its note, if
    /// any, as a caption under it.
    private static func lineRows(_ line: BillLine, _ money: (Int64) -> String) -> [Component] {
        let options = line.modifiers.map { "\($0.name) +\(money($0.priceMinor)) · " }.joined()
        let row = Component.row(
            title: "\(line.quantity) × \(line.name)", detail: "\(options)\(money(line.unitPriceMinor)) each", value: money(line.lineTotalMinor))
        guard let note = line.note else { return [row] }
        return [row, .text(note, style: .caption)]
    }

    private static func totals(of bill: Bill, _ money: (Int64) -> String) -> Component {
        .section(
            title: nil,
            children: [
                .row(title: "Subtotal", value: money(bill.subtotalMinor))
            ] + discountRows(of: bill, money) + [
                .row(title: "Tax", value: money(bill.taxMinor)),
                .row(title: "Total", value: money(bill.totalMinor)),
            ])
    }

    /// The discount's row, `Discount (reason)` with what it takes off as a negative amount; none without one.
    private static func discountRows(of bill: Bill, _ money: (Int64) -> String) -> [Component] {
        guard let discount = bill.discount else { return [] }
        let rate = discount.percentBasisPoints.map { " \(MoneyText.percent(basisPoints: $0))" } ?? ""
        return [.row(title: "Discount\(rate) (\(discount.reason))", value: "−" + money(bill.discountMinor))]
    }

    static func statusText(_ status: BillStatus) -> String {
        switch status {
        case .open: "Open"
        case .checkedOut: "Checked out"
        case .paid: "Paid"
        case .voided: "Voided"
        }
    }
}
