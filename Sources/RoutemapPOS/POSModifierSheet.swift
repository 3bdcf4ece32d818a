import RoutemapDomain
import RoutemapJSON
import RoutemapNavigation

/// The modifier sheet: one menu item's options, presented over the menu by the menu's
/// `chooseModifiers`, whose "Add" sends the add with the options chosen (its answer dismisses the
/// sheet and shows the bill: `BillsController.addItem`).
extension POSNavigation {
    /// The item (as the menu has it now, with its groups and options) and the bill it is added to.
    /// An item no longer on the menu is `unknown_menu_item` (422), as adding it would be; a bill
    /// that is not the device's is 404, as for the bill screen.
    @Sendable static func modifierSheetScreen(inputs: RouteInputs, context: ScreenContext) throws -> ScreenContent {
        // The bill as the endpoints read it: another device's or an unknown one is 404.
        let billId = try context.bill(id: try required(POSInput.billId, in: inputs)).id
        let itemId = try required(POSInput.menuItemId, in: inputs)
        guard let item = context.menu.item(id: itemId) else { throw POSError.unknownMenuItem(itemId) }
        let payload: JSONObject = [
            "billId": .string(billId),
            "menuItemId": .string(item.id),
            "name": .string(item.name),
            "priceMinor": .int(item.priceMinor),
            "currency": .string(item.currency.rawValue),
            "available": .bool(item.available),
            "modifierGroups": .array(item.modifierGroups.map(\.json)),
        ]
        return ScreenContent(
            payload: .object(payload), actions: item.available ? modifierSheetActions : [],
            inputs: [POSInput.billId: billId, POSInput.menuItemId: item.id], components: { modifierSheetComponents(item) })
    }

    /// "Add": the item, once, with the options the cashier chose (`{value.modifiers}`: an array of
    /// option ids, `[]` for none) to the sheet's bill.
    private static let modifierSheetActions = [
        ScreenAction(
            name: "addItem", method: "POST", path: "/v1/bills/{billId}/items",
            body: ["menuItemId": "{payload.menuItemId}", "quantity": 1, "modifiers": "{value.modifiers}"], headers: keyed)
    ]

    /// For clients without a native sheet: each group and its options as rows, then one "Add"
    /// button per choice a tap can make, each supplying its `modifiers`: the item as it comes
    /// (when no group is required) and with each single option that is enough on its own.
    static func modifierSheetComponents(_ item: MenuItem) -> [Component] {
        let money = { (minor: Int64) in MoneyText.format(minor, item.currency) }
        let sections: [Component] = item.modifierGroups.map { group in
            let rule = group.minChoices == 0 ? "up to \(group.maxChoices)" : group.minChoices == group.maxChoices ? "choose \(group.minChoices)" : "choose \(group.minChoices) to \(group.maxChoices)"
            return .section(
                title: "\(group.name) (\(rule))", children: group.options.map { .row(title: $0.name, value: "+" + money($0.priceMinor)) })
        }
        guard item.available else { return sections + [.text("\(item.name) is not available right now.")] }
        let choices = [[String]()] + item.modifierGroups.flatMap { $0.options.map { [$0.id] } }
        let buttons: [Component] = choices.compactMap { ids in
            guard let chosen = try? item.chosenModifiers(ids), let price = item.unitPriceMinor(with: chosen) else { return nil }
            let title = ([item.name] + chosen.map(\.name)).joined(separator: " · ") + " · " + money(price)
            return .button(title: "Add \(title)", action: "addItem", style: .primary, values: ["modifiers": .array(ids.map { .string($0) })])
        }
        return sections + [.divider] + buttons
    }
}
