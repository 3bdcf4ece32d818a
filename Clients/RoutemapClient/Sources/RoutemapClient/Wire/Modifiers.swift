/// A question a menu item asks when it is added ("Milk"): choose `minChoices` to `maxChoices`
/// of its options (`minChoices` ≥ 1: it must be answered).
public struct ModifierGroup: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var id: String
    public var name: String
    public var minChoices: Int
    public var maxChoices: Int
    public var options: [ModifierOption]

    public init(id: String, name: String, minChoices: Int, maxChoices: Int, options: [ModifierOption]) {
        self.id = id
        self.name = name
        self.minChoices = minChoices
        self.maxChoices = maxChoices
        self.options = options
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case id, name, minChoices, maxChoices, options }
}

/// One option of a ``ModifierGroup`` ("Oat"), and what it adds to the item's unit price.
public struct ModifierOption: Codable, Sendable, Hashable, WireObjectWithKeys {
    /// What an add names in `modifiers`.
    public var id: String
    public var name: String
    public var priceMinor: Int64

    public init(id: String, name: String, priceMinor: Int64) {
        self.id = id
        self.name = name
        self.priceMinor = priceMinor
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case id, name, priceMinor }
}

/// An option a bill line was added with: its name and price then.
public struct LineModifier: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var optionId: String
    public var name: String
    public var priceMinor: Int64

    enum CodingKeys: String, CodingKey, CaseIterable { case optionId, name, priceMinor }
}

/// A row of the menu screen: a menu item, and the action its tap sends when it is not the
/// menu's `addItem` (`chooseModifiers` for an item with modifier groups).
public struct MenuScreenItem: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var id: String
    public var name: String
    public var category: String
    public var priceMinor: Int64
    public var currency: String
    public var available: Bool
    /// Empty when the item has none (the member is then absent).
    public var modifierGroups: [ModifierGroup] = []
    /// The screen action a tap on the row sends; `nil`: `addItem`.
    public var action: String?
    /// How many are left, for an item the shop counts; `nil` for one it does not (or from a
    /// server from before counts), as ``MenuItem/stock``.
    public var stock: Int? = nil

    /// The name of the screen action a tap on this row sends.
    public var actionName: String { action ?? "addItem" }

    /// Whether the shop counts it and none is left: a tap on the row is refused.
    public var isSoldOut: Bool { stock.map { $0 <= 0 } ?? false }

    enum CodingKeys: String, CodingKey, CaseIterable { case id, name, category, priceMinor, currency, available, modifierGroups, action, stock }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        category = try container.decode(String.self, forKey: .category)
        priceMinor = try container.decode(Int64.self, forKey: .priceMinor)
        currency = try container.decode(String.self, forKey: .currency)
        available = try container.decode(Bool.self, forKey: .available)
        modifierGroups = try container.decodeIfPresent([ModifierGroup].self, forKey: .modifierGroups) ?? []
        action = try container.decodeIfPresent(String.self, forKey: .action)
        stock = try container.decodeIfPresent(Int.self, forKey: .stock)
    }

}

/// The modifier sheet's payload: the item with its groups, the bill it is added to, and (on a
/// declarative sheet) its component tree.
public struct ModifierSheetPayload: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var billId: String
    public var menuItemId: String
    public var name: String
    public var priceMinor: Int64
    public var currency: String
    public var available: Bool
    public var modifierGroups: [ModifierGroup]
    public var components: [Component]?

    enum CodingKeys: String, CodingKey, CaseIterable { case billId, menuItemId, name, priceMinor, currency, available, modifierGroups, components }
}
