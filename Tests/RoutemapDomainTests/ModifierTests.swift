import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

/// Menu item modifiers: the groups' rules, choosing options, the lines they make (price, merge,
/// snapshot), and the use cases over an in-memory store, refusals changing nothing.
@Suite("Modifiers")
struct ModifierTests {
    static let milk = ModifierGroup(
        id: "milk", name: "Milk", minChoices: 0, maxChoices: 1,
        options: [ModifierOption(id: "oat", name: "Oat", priceMinor: 50), ModifierOption(id: "almond", name: "Almond", priceMinor: 50)])
    static let extras = ModifierGroup(
        id: "extras", name: "Extras", minChoices: 0, maxChoices: 2,
        options: [
            ModifierOption(id: "shot", name: "Extra shot", priceMinor: 60), ModifierOption(id: "vanilla", name: "Vanilla syrup", priceMinor: 40),
            ModifierOption(id: "caramel", name: "Caramel syrup", priceMinor: 40),
        ])
    static let size = ModifierGroup(
        id: "size", name: "Size", minChoices: 1, maxChoices: 1,
        options: [ModifierOption(id: "small", name: "Small", priceMinor: 0), ModifierOption(id: "large", name: "Large", priceMinor: 75)])
    static let latte = Fixtures.latte.withModifierGroups([milk, extras])
    static let flatWhite = Fixtures.item("flat-white", price: 425).withModifierGroups([size, milk])

    static func group(_ id: String = "g", min: Int = 0, max: Int = 1, options: Int = 2) -> ModifierGroup {
        ModifierGroup(
            id: id, name: id.uppercased(), minChoices: min, maxChoices: max,
            options: (0..<options).map { ModifierOption(id: "\(id)-\($0)", name: "Option \($0)", priceMinor: 10) })
    }

    @Test("options chosen come back in menu order with their names and prices, whatever order they were named in")
    func chosenInMenuOrder() throws {
        let chosen = try Self.latte.chosenModifiers(["vanilla", "oat", "shot"])
        #expect(chosen.map(\.optionId) == ["oat", "shot", "vanilla"])
        #expect(chosen.map(\.priceMinor) == [50, 60, 40] && chosen.first?.name == "Oat")
        #expect(try Self.latte.chosenModifiers([]) == [])
        #expect(try Fixtures.croissant.chosenModifiers([]) == [])
    }

    @Test("refused: an option named twice (invalid input), another item's option, a group over its max, a required group left out")
    func refusedChoices() throws {
        #expect(throws: InvalidInput(field: "modifiers", rule: "distinct option ids (each named once)")) {
            try Self.latte.chosenModifiers(["oat", "oat"])
        }
        #expect(throws: POSError.unknownModifier(menuItemId: "latte", optionId: "large")) { try Self.latte.chosenModifiers(["oat", "large"]) }
        #expect(throws: POSError.unknownModifier(menuItemId: "croissant", optionId: "oat")) { try Fixtures.croissant.chosenModifiers(["oat"]) }
        #expect(throws: POSError.modifierChoiceInvalid(menuItemId: "latte", groupId: "milk", groupName: "Milk", minChoices: 0, maxChoices: 1, chosen: 2)) {
            try Self.latte.chosenModifiers(["oat", "almond"])
        }
        #expect(throws: POSError.modifierChoiceInvalid(menuItemId: "latte", groupId: "extras", groupName: "Extras", minChoices: 0, maxChoices: 2, chosen: 3)) {
            try Self.latte.chosenModifiers(["shot", "vanilla", "caramel"])
        }
        #expect(throws: POSError.modifierChoiceInvalid(menuItemId: "flat-white", groupId: "size", groupName: "Size", minChoices: 1, maxChoices: 1, chosen: 0)) {
            try Self.flatWhite.chosenModifiers([])
        }
        #expect(throws: POSError.modifierChoiceInvalid(menuItemId: "flat-white", groupId: "size", groupName: "Size", minChoices: 1, maxChoices: 1, chosen: 0)) {
            try Self.flatWhite.chosenModifiers(["oat"])
        }
        #expect(try Self.flatWhite.chosenModifiers(["large", "oat"]).map(\.optionId) == ["large", "oat"])
    }

    @Test("a group's rules: ids, names, prices, 0 ≤ min ≤ max ≤ options, max ≥ 1, at most 10 groups of 20 options, ids unique in the item")
    func groupRules() throws {
        #expect(try ModifierGroup.checked([Self.milk, Self.extras, Self.size]).count == 3)
        #expect(try ModifierGroup.checked([]) == [])
        #expect(try ModifierGroup.checked((0..<10).map { Self.group("g\($0)") }).count == 10)
        #expect(try ModifierGroup.checked([Self.group(max: 20, options: 20)]).count == 1)
        func refused(_ groups: [ModifierGroup]) -> String? {
            do {
                try ModifierGroup.checked(groups)
                return nil
            } catch {
                return error.field
            }
        }
        #expect(refused((0..<11).map { Self.group("g\($0)") }) == "modifierGroups")
        #expect(refused([Self.group(max: 1, options: 21)]) == "modifierGroups[0].options")
        #expect(refused([Self.milk, Self.group(options: 0)]) == "modifierGroups[1].options")
        #expect(refused([Self.group(min: 2, max: 1)]) == "modifierGroups[0].minChoices")
        #expect(refused([Self.group(max: 3, options: 2)]) == "modifierGroups[0].maxChoices")
        #expect(refused([Self.group(min: 0, max: 0)]) == "modifierGroups[0].maxChoices")
        #expect(refused([Self.milk, Self.milk]) == "modifierGroups[1].id")
        #expect(refused([Self.milk, ModifierGroup(id: "more", name: "More", minChoices: 0, maxChoices: 1, options: Self.milk.options)]) == "modifierGroups[1].options[0].id")
        #expect(refused([ModifierGroup(id: "Milk", name: "Milk", minChoices: 0, maxChoices: 1, options: Self.milk.options)]) == "modifierGroups[0].id")
        #expect(refused([ModifierGroup(id: "milk", name: " ", minChoices: 0, maxChoices: 1, options: Self.milk.options)]) == "modifierGroups[0].name")
        let pricey = ModifierOption(id: "gold", name: "Gold leaf", priceMinor: MenuItem.priceRange.upperBound + 1)
        #expect(refused([ModifierGroup(id: "milk", name: "Milk", minChoices: 0, maxChoices: 1, options: [pricey])]) == "modifierGroups[0].options[0].priceMinor")
        let negative = ModifierOption(id: "cheap", name: "Cheap", priceMinor: -1)
        #expect(refused([ModifierGroup(id: "milk", name: "Milk", minChoices: 0, maxChoices: 1, options: [negative])]) == "modifierGroups[0].options[0].priceMinor")
        let badOption = ModifierOption(id: "oat milk", name: "Oat", priceMinor: 0)
        #expect(refused([ModifierGroup(id: "milk", name: "Milk", minChoices: 0, maxChoices: 1, options: [badOption])]) == "modifierGroups[0].options[0].id")
    }

    @Test("a line's unit price is the item's plus its options'; the same set (any order) raises that line, another set or none is a line of its own")
    func linesAndMerging() throws {
        var bill = Fixtures.bill()
        let oatShot = try Self.latte.chosenModifiers(["shot", "oat"])
        try bill.add(Self.latte, quantity: 1, modifiers: oatShot, newLineId: "line_a")
        #expect(bill.lines.map(\.unitPriceMinor) == [475 + 50 + 60])
        #expect(bill.lines[0].modifiers == oatShot)
        try bill.add(Self.latte, quantity: 2, modifiers: try Self.latte.chosenModifiers(["oat", "shot"]), newLineId: "line_b")
        #expect(bill.lines.count == 1 && bill.lines[0].quantity == 3 && bill.lines[0].lineTotalMinor == 3 * 585)
        try bill.add(Self.latte, quantity: 1, newLineId: "line_c")
        try bill.add(Self.latte, quantity: 1, modifiers: try Self.latte.chosenModifiers(["oat"]), newLineId: "line_d")
        try bill.add(Self.latte, quantity: 1, newLineId: "line_e")
        #expect(bill.lines.map(\.lineId) == ["line_a", "line_c", "line_d"])
        #expect(bill.lines.map(\.quantity) == [3, 2, 1])
        #expect(bill.lines.map(\.unitPriceMinor) == [585, 475, 525])
        // Tax per line, as for any line: 8.75 % of 1755, 950 and 525.
        #expect(bill.subtotalMinor == 1_755 + 950 + 525)
        #expect(bill.taxMinor == Fixtures.rate875.tax(onMinor: 1_755) + Fixtures.rate875.tax(onMinor: 950) + Fixtures.rate875.tax(onMinor: 525))
    }

    @Test("a line keeps its options' names and prices: a repriced option changes neither it nor a merge into it")
    func snapshot() throws {
        var bill = Fixtures.bill()
        try bill.add(Self.latte, quantity: 1, modifiers: try Self.latte.chosenModifiers(["oat"]), newLineId: "line_a")
        let repriced = Self.latte.withModifierGroups([
            ModifierGroup(
                id: "milk", name: "Milk", minChoices: 0, maxChoices: 1,
                options: [ModifierOption(id: "oat", name: "Oat (organic)", priceMinor: 90)]),
        ])
        try bill.add(repriced, quantity: 1, modifiers: try repriced.chosenModifiers(["oat"]), newLineId: "line_b")
        #expect(bill.lines.count == 1 && bill.lines[0].quantity == 2)
        #expect(bill.lines[0].modifiers == [BillLineModifier(optionId: "oat", name: "Oat", priceMinor: 50)])
        #expect(bill.lines[0].unitPriceMinor == 525)
    }

    @Test("adding through the till: options checked against the menu; a refused add changes nothing")
    func tillAdds() async throws {
        let store = InMemoryStore(menu: [Self.latte, Self.flatWhite, Fixtures.croissant])
        let till = Till(store: store, taxRate: Fixtures.rate875, currency: .usd)
        let device = Fixtures.device
        var bill = try await till.openBill(device: device)
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1, modifiers: ["vanilla", "oat"])
        #expect(bill.lines.map(\.modifiers.count) == [2] && bill.totalMinor == 565 + Fixtures.rate875.tax(onMinor: 565))
        let before = try till.bill(id: bill.id, device: device)
        let refusals: [(String, [String], any Error)] = [
            ("flat-white", [], POSError.modifierChoiceInvalid(menuItemId: "flat-white", groupId: "size", groupName: "Size", minChoices: 1, maxChoices: 1, chosen: 0)),
            ("latte", ["large"], POSError.unknownModifier(menuItemId: "latte", optionId: "large")),
            ("croissant", ["oat"], POSError.unknownModifier(menuItemId: "croissant", optionId: "oat")),
            ("latte", ["oat", "oat"], InvalidInput(field: "modifiers", rule: "distinct option ids (each named once)")),
        ]
        for (item, modifiers, expected) in refusals {
            do {
                _ = try await till.addItem(billId: bill.id, device: device, menuItemId: item, quantity: 1, modifiers: modifiers)
                Issue.record("\(item) \(modifiers) was added")
            } catch {
                #expect("\(error)" == "\(expected)")
            }
            #expect(try till.bill(id: bill.id, device: device) == before, "\(item) \(modifiers) changed the bill")
        }
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "flat-white", quantity: 1, modifiers: ["large"])
        #expect(bill.lines.last?.unitPriceMinor == 500 && bill.version == before.version + 1)
    }

    @Test("managing: an item is created with its groups; a change given groups replaces them all, [] removes them, none keeps them")
    func managing() async throws {
        let store = InMemoryStore(menu: Fixtures.menu)
        let till = Till(store: store, taxRate: Fixtures.rate875, currency: .usd)
        let created = try await till.createMenuItem(
            MenuItemDraft(id: "mocha", name: "Mocha", category: "coffee", priceMinor: 500, modifierGroups: [Self.milk]), device: "dev_m",
            idempotency: nil
        ).performedWithoutKey()
        #expect(created.modifierGroups == [Self.milk])
        #expect(try till.menu().first { $0.id == "mocha" } == created)
        let revision = try till.menuRevision()
        let renamed = try await till.changeMenuItem(id: "mocha", MenuItemPatch(name: "Mocha Latte"), device: "dev_m", idempotency: nil).performedWithoutKey()
        #expect(renamed.modifierGroups == [Self.milk])
        #expect(try till.menu().first { $0.id == "mocha" }?.modifierGroups == [Self.milk])
        let replaced = try await till.changeMenuItem(id: "mocha", MenuItemPatch(modifierGroups: [Self.size, Self.extras]), device: "dev_m", idempotency: nil)
            .performedWithoutKey()
        #expect(try till.menu().first { $0.id == "mocha" } == replaced)
        #expect(replaced.modifierGroups.map(\.id) == ["size", "extras"])
        #expect(replaced.name == "Mocha Latte")
        #expect(try till.menuRevision() > revision)
        _ = try await till.changeMenuItem(id: "mocha", MenuItemPatch(modifierGroups: []), device: "dev_m", idempotency: nil)
        #expect(try till.menu().first { $0.id == "mocha" }?.modifierGroups == [])
        // Bad groups are refused before anything is read or written.
        let revisionBefore = try till.menuRevision()
        await #expect(throws: InvalidInput.self) {
            _ = try await till.changeMenuItem(id: "mocha", MenuItemPatch(modifierGroups: [Self.group(min: 2, max: 1)]), device: "dev_m", idempotency: nil)
        }
        await #expect(throws: InvalidInput.self) {
            _ = try await till.createMenuItem(
                MenuItemDraft(id: "tea", name: "Tea", category: "coffee", priceMinor: 300, modifierGroups: [Self.milk, Self.milk]), device: "dev_m",
                idempotency: nil)
        }
        #expect(try till.menuRevision() == revisionBefore)
        #expect(try till.menu().first { $0.id == "tea" } == nil)
    }
}
