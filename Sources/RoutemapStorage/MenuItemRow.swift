import GRDB
import RoutemapDomain

/// A row of `menu_items`.
struct MenuItemRow: FetchableRecord, TableRecord, Sendable {
    static let databaseTableName = "menu_items"

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let category = Column("category")
        static let priceMinor = Column("price_minor")
        static let currency = Column("currency")
        static let available = Column("available")
        static let position = Column("position")
        static let stock = Column("stock")
    }

    let id: String
    let name: String
    let category: String
    let priceMinor: Int64
    let currency: String
    let available: Bool
    /// `nil` when not counted, or before migration 0027 added the column.
    let stock: Int?

    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        name = try row.decode(forColumn: Columns.name)
        category = try row.decode(forColumn: Columns.category)
        priceMinor = try row.decode(forColumn: Columns.priceMinor)
        currency = try row.decode(forColumn: Columns.currency)
        available = try row.decode(forColumn: Columns.available)
        stock = row.hasColumn(Columns.stock.name) ? try row.decode(forColumn: Columns.stock) : nil
    }

    /// The domain's menu item. Throws ``StorageError/invalidRow(table:id:reason:)``.
    func menuItem() throws -> MenuItem {
        guard let currency = Currency(rawValue: currency) else {
            throw StorageError.invalidRow(table: Self.databaseTableName, id: id, reason: "currency '\(self.currency)'")
        }
        return MenuItem(id: id, name: name, category: category, priceMinor: priceMinor, currency: currency, available: available, stock: stock)
    }
}
