/// Something the till sells, as the menu lists it.
public struct MenuItem: Sendable, Hashable, Identifiable {
    /// A readable slug such as `latte`.
    public let id: String
    public let name: String
    /// The menu section, e.g. `coffee`.
    public let category: String
    /// The price of one, in minor units of `currency` (cents for USD).
    public let priceMinor: Int64
    public let currency: Currency
    /// `false` while the item cannot be sold (sold out, seasonal): it stays on the menu.
    public let available: Bool
    /// What the cashier chooses when adding it (milk, extras), in menu order; empty for most
    /// items, which are added with one tap. See ``chosenModifiers(_:)``.
    public let modifierGroups: [ModifierGroup]

    public init(
        id: String, name: String, category: String, priceMinor: Int64, currency: Currency, available: Bool,
        modifierGroups: [ModifierGroup] = []
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.priceMinor = priceMinor
        self.currency = currency
        self.available = available
        self.modifierGroups = modifierGroups
    }
}
