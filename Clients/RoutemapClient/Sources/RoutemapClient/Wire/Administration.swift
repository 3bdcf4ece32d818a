/// What a device may do: a till rings up bills; a manager also manages the devices and the menu.
public enum DeviceRole: OpenEnumeration {
    case till, manager
    case unknown(String)

    public static let knownCases: [DeviceRole] = [.till, .manager]

    public var rawValue: String {
        switch self {
        case .till: "till"
        case .manager: "manager"
        case .unknown(let value): value
        }
    }
}

/// A device as `GET /v1/devices` lists it (no token).
public struct ListedDevice: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var deviceId: String
    public var name: String
    public var role: DeviceRole
    /// ISO 8601.
    public var createdAt: String
    public var revoked: Bool
    /// ISO 8601; absent while not revoked.
    public var revokedAt: String?
    /// Whether this is the calling device.
    public var current: Bool

    enum CodingKeys: String, CodingKey, CaseIterable { case deviceId, name, role, createdAt, revoked, revokedAt, current }
}

/// `GET /v1/devices`.
public struct DeviceList: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var devices: [ListedDevice]

    enum CodingKeys: String, CodingKey, CaseIterable { case devices }
}

/// `POST /v1/devices/{deviceId}/revoke`.
public struct RevokedDeviceAnswer: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var device: ListedDevice

    enum CodingKeys: String, CodingKey, CaseIterable { case device }
}

/// `POST /v1/menu/items`.
public struct CreateMenuItemRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var id: String
    public var name: String
    public var category: String
    public var priceMinor: Int64
    /// `true` when absent.
    public var available: Bool?
    /// Its modifier groups, in order (none when absent).
    public var modifierGroups: [ModifierGroup]?
    /// How many are on the shelf (0 to 100000), for an item the shop counts; `nil`: not counted.
    public var stock: Int?

    public init(
        id: String, name: String, category: String, priceMinor: Int64, available: Bool? = nil, modifierGroups: [ModifierGroup]? = nil,
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

    enum CodingKeys: String, CodingKey, CaseIterable { case id, name, category, priceMinor, available, modifierGroups, stock }
}

/// `PATCH /v1/menu/items/{itemId}`: the members to change.
public struct ChangeMenuItemRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var name: String?
    public var category: String?
    public var priceMinor: Int64?
    public var available: Bool?
    /// Replaces all the item's modifier groups (`[]` removes them); `nil` keeps them.
    public var modifierGroups: [ModifierGroup]?
    /// The item's shelf count: ``StockChange/count(_:)`` sets it, ``StockChange/notCounted``
    /// stops counting (sent as `null`); `nil` keeps it (left out).
    public var stock: StockChange?

    public init(
        name: String? = nil, category: String? = nil, priceMinor: Int64? = nil, available: Bool? = nil, modifierGroups: [ModifierGroup]? = nil,
        stock: StockChange? = nil
    ) {
        self.name = name
        self.category = category
        self.priceMinor = priceMinor
        self.available = available
        self.modifierGroups = modifierGroups
        self.stock = stock
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case name, category, priceMinor, available, modifierGroups, stock }
}

/// A change of a menu item's shelf count (``ChangeMenuItemRequest/stock``).
public enum StockChange: Codable, Sendable, Hashable {
    /// Counts the item: this many (0 to 100000) are on the shelf.
    case count(Int)
    /// Stops counting the item: encoded as `null`.
    case notCounted

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self = container.decodeNil() ? .notCounted : .count(try container.decode(Int.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .count(let count): try container.encode(count)
        case .notCounted: try container.encodeNil()
        }
    }
}

/// The answer of creating or changing a menu item.
public struct MenuItemAnswer: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var item: MenuItem

    enum CodingKeys: String, CodingKey, CaseIterable { case item }
}

/// `DELETE /v1/menu/items/{itemId}`: the item as it was on the menu.
public struct RetiredMenuItemAnswer: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var item: MenuItem
    public var retired: Bool

    enum CodingKeys: String, CodingKey, CaseIterable { case item, retired }
}

/// A section of the menu; items name theirs by `id`. Also `POST /v1/menu/categories`' body.
public struct MenuCategory: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case id, name }
}

/// `PATCH /v1/menu/categories/{categoryId}`.
public struct RenameMenuCategoryRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var name: String

    public init(name: String) { self.name = name }

    enum CodingKeys: String, CodingKey, CaseIterable { case name }
}

/// The answer of creating or renaming a category.
public struct MenuCategoryAnswer: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var category: MenuCategory

    enum CodingKeys: String, CodingKey, CaseIterable { case category }
}

/// `GET /v1/menu/categories`.
public struct MenuCategoryListing: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var categories: [MenuCategory]

    enum CodingKeys: String, CodingKey, CaseIterable { case categories }
}

/// `DELETE /v1/menu/categories/{categoryId}`.
public struct RetiredMenuCategoryAnswer: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var category: MenuCategory
    public var retired: Bool

    enum CodingKeys: String, CodingKey, CaseIterable { case category, retired }
}
