/// One choice of a ``ModifierGroup`` ("Oat"), and what it adds to the item's unit price.
public struct ModifierOption: Sendable, Hashable {
    /// A ``MenuSlug`` such as `oat`, unique among the options of one menu item (all its groups):
    /// what an add to a bill names in `modifiers`.
    public let id: String
    public let name: String
    /// Added to the item's unit price when chosen, in the item's currency: in ``MenuItem/priceRange``.
    public let priceMinor: Int64

    public init(id: String, name: String, priceMinor: Int64) {
        self.id = id
        self.name = name
        self.priceMinor = priceMinor
    }
}

/// A question a menu item asks when it is added to a bill ("Milk"), with its options in menu
/// order and how many of them may be chosen: `minChoices` ≥ 1 makes the group required.
public struct ModifierGroup: Sendable, Hashable {
    /// A ``MenuSlug`` such as `milk`, unique among one menu item's groups.
    public let id: String
    public let name: String
    /// 0 to `maxChoices`.
    public let minChoices: Int
    /// 1 to the number of options.
    public let maxChoices: Int
    public let options: [ModifierOption]

    public init(id: String, name: String, minChoices: Int, maxChoices: Int, options: [ModifierOption]) {
        self.id = id
        self.name = name
        self.minChoices = minChoices
        self.maxChoices = maxChoices
        self.options = options
    }

    /// The most groups a menu item has: a till's sheet stays one screen.
    public static let maxGroups = 10
    /// The most options one group has.
    public static let maxOptions = 20

    /// `groups`, if each follows the rules (ids ``MenuSlug``s unique within the item, group ids
    /// among groups and option ids among all the item's options; names by ``DisplayName``;
    /// option prices in ``MenuItem/priceRange``; 0 ≤ min ≤ max ≤ options, max ≥ 1; at most
    /// ``maxGroups`` groups of at most ``maxOptions`` options). Throws ``InvalidInput`` naming the
    /// member as the API has it, e.g. `modifierGroups[0].options[1].priceMinor`.
    @discardableResult
    public static func checked(_ groups: [ModifierGroup]) throws(InvalidInput) -> [ModifierGroup] {
        guard groups.count <= maxGroups else { throw InvalidInput(field: "modifierGroups", rule: "at most \(maxGroups) groups") }
        var groupIds: Set<String> = [], optionIds: Set<String> = []
        for (index, group) in groups.enumerated() {
            let field = "modifierGroups[\(index)]"
            try MenuSlug.checked(group.id, field: "\(field).id")
            guard groupIds.insert(group.id).inserted else { throw InvalidInput(field: "\(field).id", rule: "unique among the item's groups") }
            try DisplayName.checked(group.name, field: "\(field).name")
            guard (1...maxOptions).contains(group.options.count) else {
                throw InvalidInput(field: "\(field).options", rule: "1 to \(maxOptions) options")
            }
            for (optionIndex, option) in group.options.enumerated() {
                let optionField = "\(field).options[\(optionIndex)]"
                try MenuSlug.checked(option.id, field: "\(optionField).id")
                guard optionIds.insert(option.id).inserted else {
                    throw InvalidInput(field: "\(optionField).id", rule: "unique among the options of all the item's groups")
                }
                try DisplayName.checked(option.name, field: "\(optionField).name")
                guard MenuItem.priceRange.contains(option.priceMinor) else {
                    throw InvalidInput(
                        field: "\(optionField).priceMinor", rule: "from \(MenuItem.priceRange.lowerBound) to \(MenuItem.priceRange.upperBound)")
                }
            }
            guard (1...group.options.count).contains(group.maxChoices) else {
                throw InvalidInput(field: "\(field).maxChoices", rule: "from 1 to the group's number of options (\(group.options.count))")
            }
            guard (0...group.maxChoices).contains(group.minChoices) else {
                throw InvalidInput(field: "\(field).minChoices", rule: "from 0 to maxChoices (\(group.maxChoices))")
            }
        }
        return groups
    }
}

/// A chosen option as a bill line keeps it: its name and price when the line was added (later
/// menu changes do not alter the bill, as for the item's own name and price).
public struct BillLineModifier: Sendable, Hashable {
    /// The option's id: lines are the same order when they have the same item and the same ids.
    public let optionId: String
    public let name: String
    public let priceMinor: Int64

    public init(optionId: String, name: String, priceMinor: Int64) {
        self.optionId = optionId
        self.name = name
        self.priceMinor = priceMinor
    }
}

extension MenuItem {
    /// The most options one add may name: every option of every group.
    public static let maxChosenModifiers = ModifierGroup.maxGroups * ModifierGroup.maxOptions

    /// The same item with `groups` as its modifier groups (a store reads them apart from the item).
    public func withModifierGroups(_ groups: [ModifierGroup]) -> MenuItem {
        MenuItem(id: id, name: name, category: category, priceMinor: priceMinor, currency: currency, available: available, modifierGroups: groups,
            stock: stock)
    }

    /// One of the item with `modifiers`: its price plus theirs, or `nil` when an option's price
    /// is negative or the sum would not fit (neither can happen to options the menu checked).
    public func unitPriceMinor(with modifiers: [BillLineModifier]) -> Int64? {
        var price = priceMinor
        for modifier in modifiers {
            let (sum, overflow) = price.addingReportingOverflow(modifier.priceMinor)
            guard !overflow, modifier.priceMinor >= 0 else { return nil }
            price = sum
        }
        return price
    }

    /// Whether adding the item needs the cashier to choose: it has modifier groups.
    public var hasModifiers: Bool { !modifierGroups.isEmpty }

    /// The options `optionIds` names, as a line keeps them, in menu order (group by group).
    ///
    /// Throws, in this order: ``InvalidInput`` for `modifiers` when an id is named twice (a
    /// malformed request), `POSError.unknownModifier` for the first id that is not one of this
    /// item's options, and
    /// `POSError.modifierChoiceInvalid` for the first group (in menu order) chosen fewer than its
    /// `minChoices` or more than its `maxChoices` times: a required group left out included.
    public func chosenModifiers(_ optionIds: [String]) throws -> [BillLineModifier] {
        // The common case first: nothing chosen on an item that asks nothing.
        if optionIds.isEmpty && modifierGroups.isEmpty { return [] }
        guard optionIds.count == Set(optionIds).count else {
            throw InvalidInput(field: "modifiers", rule: "distinct option ids (each named once)")
        }
        let offered = Set(modifierGroups.flatMap { $0.options.map(\.id) })
        if let unknown = optionIds.first(where: { !offered.contains($0) }) {
            throw POSError.unknownModifier(menuItemId: id, optionId: unknown)
        }
        let wanted = Set(optionIds)
        var chosen: [BillLineModifier] = []
        for group in modifierGroups {
            let picked = group.options.filter { wanted.contains($0.id) }
            guard (group.minChoices...group.maxChoices).contains(picked.count) else {
                throw POSError.modifierChoiceInvalid(
                    menuItemId: id, groupId: group.id, groupName: group.name, minChoices: group.minChoices, maxChoices: group.maxChoices,
                    chosen: picked.count)
            }
            chosen += picked.map { BillLineModifier(optionId: $0.id, name: $0.name, priceMinor: $0.priceMinor) }
        }
        return chosen
    }
}
