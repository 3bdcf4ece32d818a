import Foundation

/// A new menu item, as a manager describes it (the currency is the till's).
public struct MenuItemDraft: Sendable {
    public var id: String
    public var name: String
    public var category: String
    public var priceMinor: Int64
    public var available: Bool
    /// Its modifier groups, in order (none: added with one tap).
    public var modifierGroups: [ModifierGroup]
    /// How many are on the shelf (``MenuItem/stock``); `nil`: not counted.
    public var stock: Int?

    public init(
        id: String, name: String, category: String, priceMinor: Int64, available: Bool = true, modifierGroups: [ModifierGroup] = [],
        stock: Int? = nil
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.priceMinor = priceMinor
        self.available = available
        self.modifierGroups = modifierGroups
        self.stock = stock
    }
}

/// A change to a menu item: the members given change, the others stay.
public struct MenuItemPatch: Sendable {
    public var name: String?
    public var category: String?
    public var priceMinor: Int64?
    public var available: Bool?
    /// The item's new modifier groups, replacing all it had (`[]`: none); `nil` keeps them.
    public var modifierGroups: [ModifierGroup]?
    /// The item's new count (``MenuItem/stock``): `.some(n)` counts `n`, `.some(nil)` stops
    /// counting, `nil` keeps it.
    public var stock: Int??

    public init(
        name: String? = nil, category: String? = nil, priceMinor: Int64? = nil, available: Bool? = nil, modifierGroups: [ModifierGroup]? = nil,
        stock: Int?? = nil
    ) {
        self.name = name
        self.category = category
        self.priceMinor = priceMinor
        self.available = available
        self.modifierGroups = modifierGroups
        self.stock = stock
    }
}

extension MenuItem {
    /// The prices a menu item may have, in minor units: up to 100,000.00.
    public static let priceRange: ClosedRange<Int64> = 0...10_000_000

    /// `price`, if it is in ``priceRange``; else throws ``InvalidInput`` for `priceMinor`.
    @discardableResult
    public static func checkedPrice(_ price: Int64) throws(InvalidInput) -> Int64 {
        guard priceRange.contains(price) else {
            throw InvalidInput(field: "priceMinor", rule: "from \(priceRange.lowerBound) to \(priceRange.upperBound)")
        }
        return price
    }

    /// The counts a manager may set (``stock``): 0 to 100,000. Selling may take a count below 0.
    public static let stockRange: ClosedRange<Int> = 0...100_000

    /// `stock`, if it is `nil` or in ``stockRange``; else throws ``InvalidInput`` for `stock`.
    @discardableResult
    public static func checkedStock(_ stock: Int?) throws(InvalidInput) -> Int? {
        guard let stock, !stockRange.contains(stock) else { return stock }
        throw InvalidInput(field: "stock", rule: "from \(stockRange.lowerBound) to \(stockRange.upperBound), or null")
    }

    func applying(_ patch: MenuItemPatch) -> MenuItem {
        MenuItem(
            id: id, name: patch.name ?? name, category: patch.category ?? category, priceMinor: patch.priceMinor ?? priceMinor,
            currency: currency, available: patch.available ?? available, modifierGroups: patch.modifierGroups ?? modifierGroups,
            stock: patch.stock ?? stock)
    }

}

/// Managing the menu while the till runs. Bills keep the name and price each line had when it
/// was added; a retired item stays in the store for them.
///
/// What a change is given is checked first (``InvalidInput``): names by ``DisplayName``'s rule, ids
/// and categories as ``MenuSlug``s, prices in ``MenuItem/priceRange``. Each change looks
/// up the item or category it names after its idempotency key: a retry of a
/// retirement (or of a change made before one) replays its answer instead of finding nothing.
extension Till {
    /// The menu's revision: it changes with every change to the menu, by any process.
    public func menuRevision() throws -> Int {
        try store.menuRevision()
    }

    /// The categories on the menu, in menu order.
    public func menuCategories() throws -> [MenuCategory] {
        try store.menuCategories()
    }

    /// Adds an item to the end of the menu. Throws `menuItemExists` when the id is or was in use
    /// (a state conflict, recorded under the key), or `unknownCategory` when its category is not
    /// on the menu (not recorded: once a manager adds the category, the same request with the
    /// same key creates the item).
    public func createMenuItem(_ draft: MenuItemDraft, device: String, idempotency: IdempotencyKey<MenuItem>?) async throws
        -> IdempotentOutcome<MenuItem>
    {
        try MenuSlug.checked(draft.id, field: "id")
        try DisplayName.checked(draft.name)
        try MenuSlug.checked(draft.category, field: "category")
        try MenuItem.checkedPrice(draft.priceMinor)
        try ModifierGroup.checked(draft.modifierGroups)
        try MenuItem.checkedStock(draft.stock)
        let item = MenuItem(
            id: draft.id, name: draft.name, category: draft.category, priceMinor: draft.priceMinor, currency: currency,
            available: draft.available, modifierGroups: draft.modifierGroups, stock: draft.stock)
        return try await write(device: device, durability: .normal, idempotency: idempotency) { transaction in
            guard try !transaction.menuItemExists(id: item.id) else { throw POSError.menuItemExists(item.id) }
            guard try transaction.menuCategory(id: item.category) != nil else { throw POSError.unknownCategory(item.category) }
            try transaction.insertMenuItem(item)
            return item
        }
    }

    /// Changes an item on the menu; modifier groups given replace all it had (bills keep the
    /// options their lines were added with). Throws `menuItemNotFound` or, when moved to a
    /// category not on the menu, `unknownCategory` (neither recorded).
    public func changeMenuItem(id: String, _ patch: MenuItemPatch, device: String, idempotency: IdempotencyKey<MenuItem>?)
        async throws -> IdempotentOutcome<MenuItem>
    {
        if let name = patch.name { try DisplayName.checked(name) }
        if let category = patch.category { try MenuSlug.checked(category, field: "category") }
        if let price = patch.priceMinor { try MenuItem.checkedPrice(price) }
        if let groups = patch.modifierGroups { try ModifierGroup.checked(groups) }
        if let stock = patch.stock { try MenuItem.checkedStock(stock) }
        return try await write(device: device, durability: .normal, idempotency: idempotency) { transaction in
            let item = try Self.listedItem(id, in: transaction)
            let changed = item.applying(patch)
            if changed.category != item.category, try transaction.menuCategory(id: changed.category) == nil {
                throw POSError.unknownCategory(changed.category)
            }
            // The item's own row, then its groups: each only when it changed.
            if changed.withModifierGroups([]) != item.withModifierGroups([]) { try transaction.updateMenuItem(changed) }
            if changed.modifierGroups != item.modifierGroups {
                try transaction.replaceModifierGroups(menuItemId: id, with: changed.modifierGroups)
            }
            return changed
        }
    }

    /// Takes an item off the menu; bills that hold it keep it. Throws `menuItemNotFound` (not
    /// recorded: a retry after a lost answer meets `menuItemNotFound` again).
    public func retireMenuItem(id: String, device: String, idempotency: IdempotencyKey<MenuItem>?) async throws
        -> IdempotentOutcome<MenuItem>
    {
        let now = timestamp()
        return try await write(device: device, durability: .normal, idempotency: idempotency) { transaction in
            let item = try Self.listedItem(id, in: transaction)
            try transaction.retireMenuItem(id: item.id, at: now)
            return item
        }
    }

    /// Adds a category at the end of the menu. Throws `menuCategoryExists` (recorded).
    public func createMenuCategory(_ category: MenuCategory, device: String, idempotency: IdempotencyKey<MenuCategory>?) async throws
        -> IdempotentOutcome<MenuCategory>
    {
        try MenuSlug.checked(category.id, field: "id")
        try DisplayName.checked(category.name)
        return try await write(device: device, durability: .normal, idempotency: idempotency) { transaction in
            guard try !transaction.menuCategoryExists(id: category.id) else { throw POSError.menuCategoryExists(category.id) }
            try transaction.insertMenuCategory(category)
            return category
        }
    }

    /// Renames a category on the menu. Throws `menuCategoryNotFound` (not recorded).
    public func renameMenuCategory(id: String, name: String, device: String, idempotency: IdempotencyKey<MenuCategory>?) async throws
        -> IdempotentOutcome<MenuCategory>
    {
        try DisplayName.checked(name)
        return try await write(device: device, durability: .normal, idempotency: idempotency) { transaction in
            let category = try Self.listedCategory(id, in: transaction)
            let renamed = MenuCategory(id: category.id, name: name)
            if renamed != category { try transaction.updateMenuCategory(renamed) }
            return renamed
        }
    }

    /// Takes an empty category off the menu. Throws `menuCategoryNotFound` (not recorded) or
    /// `categoryNotEmpty` (recorded) while items on the menu are in it.
    public func retireMenuCategory(id: String, device: String, idempotency: IdempotencyKey<MenuCategory>?) async throws
        -> IdempotentOutcome<MenuCategory>
    {
        let now = timestamp()
        return try await write(device: device, durability: .normal, idempotency: idempotency) { transaction in
            let category = try Self.listedCategory(id, in: transaction)
            guard try transaction.menuItemCount(category: category.id) == 0 else { throw POSError.categoryNotEmpty(category.id) }
            try transaction.retireMenuCategory(id: category.id, at: now)
            return category
        }
    }

    private static func listedCategory(_ id: String, in transaction: any POSTransaction) throws -> MenuCategory {
        guard let category = try transaction.menuCategory(id: id) else { throw POSError.menuCategoryNotFound(id) }
        return category
    }

    private static func listedItem(_ id: String, in transaction: any POSTransaction) throws -> MenuItem {
        guard let item = try transaction.menuItem(id: id) else { throw POSError.menuItemNotFound(id) }
        return item
    }
}
