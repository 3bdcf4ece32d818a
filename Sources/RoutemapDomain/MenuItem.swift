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
    /// How many are left on the shelf, for an item the shop counts (croissants); `nil` for one it
    /// does not (the default: coffee is made to order). A counted item sells only while it is
    /// available and its count is above 0 (``isSoldOut``). The count goes down when a bill that
    /// holds it is paid, never when it is added: open bills may hold more than are left. It may
    /// be below 0: a sale is never refused for the count, which was then wrong.
    public let stock: Int?

    public init(
        id: String, name: String, category: String, priceMinor: Int64, currency: Currency, available: Bool,
        modifierGroups: [ModifierGroup] = [], stock: Int? = nil
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.priceMinor = priceMinor
        self.currency = currency
        self.available = available
        self.modifierGroups = modifierGroups
        self.stock = stock
    }

    /// Whether the shop counts it and none is left (its count is 0 or below).
    public var isSoldOut: Bool { stock.map { $0 <= 0 } ?? false }

    /// Whether the shop counts how many are left (``stock`` is not `nil`).
    public var isCounted: Bool { stock != nil }
}
