import Foundation
import GRDB
import RoutemapDomain

extension SQLiteStore {
    public func menuRevision() throws -> Int {
        try read("reading the menu revision") { transaction in
            try Int.fetchOne(transaction.database.cachedStatement(sql: "SELECT revision FROM menu_revision WHERE id = 1")) ?? 0
        }
    }
}

extension SQLiteTransaction {
    func menuItemExists(id: String) throws -> Bool {
        try StorageError.wrapping("checking menu item \(id)") {
            try Bool.fetchOne(database, sql: "SELECT EXISTS (SELECT 1 FROM menu_items WHERE id = ?)", arguments: [id]) ?? false
        }
    }

    func insertMenuItem(_ item: MenuItem) throws {
        writing?.menu.forget()
        try StorageError.wrapping("adding menu item \(item.id)") {
            try database.execute(
                sql: """
                    INSERT INTO menu_items (id, name, category, price_minor, currency, available, stock, position)
                    VALUES (?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(position), 0) + 10 FROM menu_items))
                    """,
                arguments: [item.id, item.name, item.category, item.priceMinor, item.currency.rawValue, item.available, item.stock])
            try insertModifierGroups(item.modifierGroups, menuItemId: item.id)
        }
    }

    func updateMenuItem(_ item: MenuItem) throws {
        writing?.menu.forget()
        try StorageError.wrapping("changing menu item \(item.id)") {
            try database.execute(
                sql: "UPDATE menu_items SET name = ?, category = ?, price_minor = ?, available = ?, stock = ? WHERE id = ? AND retired_at IS NULL",
                arguments: [item.name, item.category, item.priceMinor, item.available, item.stock, item.id])
        }
    }

    func takeFromStock(_ sold: [String: Int]) throws {
        // The writer's menu now has old counts: adds read the table until it is reloaded.
        writing?.menu.forget()
        try StorageError.wrapping("taking sold items off their stock counts") {
            let statement = try database.cachedStatement(sql: "UPDATE menu_items SET stock = stock - ? WHERE id = ? AND stock IS NOT NULL")
            for (id, quantity) in sold.sorted(by: { $0.key < $1.key }) {
                try statement.execute(arguments: [quantity, id])
            }
        }
    }

    func retireMenuItem(id: String, at date: Date) throws {
        writing?.menu.forget()
        try StorageError.wrapping("retiring menu item \(id)") {
            try database.execute(
                sql: "UPDATE menu_items SET retired_at = ? WHERE id = ? AND retired_at IS NULL", arguments: [Timestamp.format(date), id])
        }
    }
}

extension SQLiteStore {
    public func menuCategories() throws -> [MenuCategory] {
        try read("reading the menu's categories") { transaction in
            try Row.fetchAll(transaction.database, sql: "SELECT id, name FROM menu_categories WHERE retired_at IS NULL ORDER BY position, id")
                .map { MenuCategory(id: $0["id"], name: $0["name"]) }
        }
    }
}

extension SQLiteTransaction {
    func menuCategory(id: String) throws -> MenuCategory? {
        try StorageError.wrapping("reading category \(id)") {
            try Row.fetchOne(database, sql: "SELECT id, name FROM menu_categories WHERE id = ? AND retired_at IS NULL", arguments: [id])
                .map { MenuCategory(id: $0["id"], name: $0["name"]) }
        }
    }

    func menuCategoryExists(id: String) throws -> Bool {
        try StorageError.wrapping("checking category \(id)") {
            try Bool.fetchOne(database, sql: "SELECT EXISTS (SELECT 1 FROM menu_categories WHERE id = ?)", arguments: [id]) ?? false
        }
    }

    func insertMenuCategory(_ category: MenuCategory) throws {
        try StorageError.wrapping("adding category \(category.id)") {
            try database.execute(
                sql: """
                    INSERT INTO menu_categories (id, name, position)
                    VALUES (?, ?, (SELECT coalesce(max(position), 0) + 10 FROM menu_categories))
                    """,
                arguments: [category.id, category.name])
        }
    }

    func updateMenuCategory(_ category: MenuCategory) throws {
        try StorageError.wrapping("renaming category \(category.id)") {
            try database.execute(
                sql: "UPDATE menu_categories SET name = ? WHERE id = ? AND retired_at IS NULL", arguments: [category.name, category.id])
        }
    }

    func retireMenuCategory(id: String, at date: Date) throws {
        try StorageError.wrapping("retiring category \(id)") {
            try database.execute(
                sql: "UPDATE menu_categories SET retired_at = ? WHERE id = ? AND retired_at IS NULL", arguments: [Timestamp.format(date), id])
        }
    }

    func menuItemCount(category id: String) throws -> Int {
        try StorageError.wrapping("counting the items of category \(id)") {
            try Int.fetchOne(database, sql: "SELECT count(*) FROM menu_items WHERE category = ? AND retired_at IS NULL", arguments: [id]) ?? 0
        }
    }
}
