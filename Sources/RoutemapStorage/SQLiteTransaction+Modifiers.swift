import GRDB
import RoutemapDomain

// Modifiers on SQLite (migration 0023): an item's groups and options, and the options a bill
// line was added with. A store opened on a file migrated only up to an earlier migration (the
// migration tests do) has neither table: it reads no modifiers and writes none (GRDB caches the
// schema per connection, so asking costs no query once known).
extension SQLiteTransaction {
    /// Whether the file has migration 0023's tables.
    var hasModifiers: Bool {
        get throws { try database.tableExists("bill_line_modifiers") }
    }

    /// The lines of bill `billId`, in order, each with its modifiers: one query, the modifiers
    /// joined by their key's prefix (a line without any is one row, as before).
    func billLineRows(billId: String) throws -> [BillLineRow] {
        guard try hasModifiers else {
            return try BillLineRow.fetchAll(
                database.cachedStatement(sql: "SELECT * FROM bill_lines WHERE bill_id = ? ORDER BY position"), arguments: [billId])
        }
        let rows = try Row.fetchAll(
            database.cachedStatement(
                sql: """
                    SELECT l.*, m.option_id AS modifier_option_id, m.name AS modifier_name, m.price_minor AS modifier_price_minor
                    FROM bill_lines l LEFT JOIN bill_line_modifiers m ON m.bill_id = l.bill_id AND m.line_id = l.line_id
                    WHERE l.bill_id = ? ORDER BY l.position, m.position
                    """), arguments: [billId])
        var lines: [BillLineRow] = []
        for row in rows {
            let position: Int = try row.decode(forColumn: BillLineRow.Columns.position)
            if lines.last?.position != position { lines.append(try BillLineRow(row: row)) }
            guard let optionId: String = try row.decode(String?.self, forColumn: "modifier_option_id") else { continue }
            lines[lines.count - 1].modifiers.append(
                BillLineModifier(
                    optionId: optionId, name: try row.decode(String.self, forColumn: "modifier_name"),
                    priceMinor: try row.decode(Int64.self, forColumn: "modifier_price_minor")))
        }
        return lines
    }

    /// Deletes the modifiers of `bill`'s lines before its lines are written again: when its
    /// stored lines are unknown or had any (nothing to do, and no statement, otherwise).
    func deleteLineModifiers(of bill: Bill, previous: Bill?) throws {
        guard previous.map({ $0.lines.contains { !$0.modifiers.isEmpty } }) ?? true, try hasModifiers else { return }
        try database.cachedStatement(sql: "DELETE FROM bill_line_modifiers WHERE bill_id = ?").execute(arguments: [bill.id])
    }

    /// Every item's modifier groups, by item id (items without any are absent): two queries,
    /// for the whole menu.
    func modifierGroups(menuItemId: String? = nil) throws -> [String: [ModifierGroup]] {
        guard try hasModifiers else { return [:] }
        let filter = menuItemId == nil ? "" : " WHERE menu_item_id = ?"
        let arguments: StatementArguments = menuItemId.map { [$0] } ?? []
        return try StorageError.wrapping("reading the menu's modifiers") {
            var options: [String: [String: [ModifierOption]]] = [:]
            for row in try Row.fetchAll(
                database, sql: "SELECT menu_item_id, group_id, id, name, price_minor FROM menu_modifier_options\(filter) ORDER BY menu_item_id, group_id, position",
                arguments: arguments)
            {
                options[row["menu_item_id"], default: [:]][row["group_id"], default: []].append(
                    ModifierOption(id: row["id"], name: row["name"], priceMinor: row["price_minor"]))
            }
            var groups: [String: [ModifierGroup]] = [:]
            for row in try Row.fetchAll(
                database, sql: "SELECT menu_item_id, id, name, min_choices, max_choices FROM menu_modifier_groups\(filter) ORDER BY menu_item_id, position",
                arguments: arguments)
            {
                let item: String = row["menu_item_id"], id: String = row["id"]
                groups[item, default: []].append(
                    ModifierGroup(
                        id: id, name: row["name"], minChoices: row["min_choices"], maxChoices: row["max_choices"],
                        options: options[item]?[id] ?? []))
            }
            return groups
        }
    }

    func replaceModifierGroups(menuItemId: String, with groups: [ModifierGroup]) throws {
        writing?.menu.forget()
        try StorageError.wrapping("changing the modifiers of menu item \(menuItemId)") {
            // Its options go with them (ON DELETE CASCADE).
            try database.execute(sql: "DELETE FROM menu_modifier_groups WHERE menu_item_id = ?", arguments: [menuItemId])
            try insertModifierGroups(groups, menuItemId: menuItemId)
        }
    }

    /// Inserts `groups` and their options for item `menuItemId`, at their index as position.
    func insertModifierGroups(_ groups: [ModifierGroup], menuItemId: String) throws {
        for (position, group) in groups.enumerated() {
            try database.execute(
                sql: "INSERT INTO menu_modifier_groups (menu_item_id, id, name, min_choices, max_choices, position) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [menuItemId, group.id, group.name, group.minChoices, group.maxChoices, position])
            for (optionPosition, option) in group.options.enumerated() {
                try database.execute(
                    sql: """
                        INSERT INTO menu_modifier_options (menu_item_id, group_id, id, name, price_minor, position)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [menuItemId, group.id, option.id, option.name, option.priceMinor, optionPosition])
            }
        }
    }
}
