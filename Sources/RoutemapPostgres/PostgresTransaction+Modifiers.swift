import PostgresNIO
import RoutemapDomain
import RoutemapStorage

// Modifiers on PostgreSQL (migration 0023): an item's groups and options, read with the item in
// one statement, and replaced whole.
extension PostgresTransaction {
    /// A menu item's columns, then its groups' and options' (`NULL`s for an item without any),
    /// over `menu_items i` and ``modifiersJoin``: one row per option, in order.
    static let menuItemColumns = """
        i.id, i.name, i.category, i.price_minor, i.currency, i.available,
        g.id, g.name, g.min_choices, g.max_choices, o.id, o.name, o.price_minor, i.stock
        """

    /// An item's modifier groups and their options, joined to `menu_items i` (an item without
    /// groups is one row, found by one more probe of the groups' key).
    static let modifiersJoin = """
        LEFT JOIN menu_modifier_groups g ON g.menu_item_id = i.id
        LEFT JOIN menu_modifier_options o ON o.menu_item_id = g.menu_item_id AND o.group_id = g.id
        """

    /// The items in rows of ``menuItemColumns``, in the order they first appear, each with its groups.
    static func menuItems(in rows: [PostgresRow]) throws -> [MenuItem] {
        var items: [(cells: PostgresRandomAccessRow, groups: [(cells: PostgresRandomAccessRow, options: [ModifierOption])])] = []
        for row in rows {
            let cells = row.makeRandomAccess()
            let id = try cells[0].decode(String.self)
            if try items.last.map({ try $0.cells[0].decode(String.self) }) != id { items.append((cells, [])) }
            guard let groupId = try cells[6].decode(String?.self) else { continue }
            if try items[items.count - 1].groups.last.map({ try $0.cells[6].decode(String.self) }) != groupId {
                items[items.count - 1].groups.append((cells, []))
            }
            guard let optionId = try cells[10].decode(String?.self) else { continue }
            let option = ModifierOption(id: optionId, name: try cells[11].decode(String.self), priceMinor: try cells[12].decode(Int64.self))
            let last = items[items.count - 1].groups.count - 1
            items[items.count - 1].groups[last].options.append(option)
        }
        return try items.map { item in
            try menuItem(
                item.cells,
                modifierGroups: try item.groups.map { group in
                    ModifierGroup(
                        id: try group.cells[6].decode(String.self), name: try group.cells[7].decode(String.self),
                        minChoices: try group.cells[8].decode(Int.self), maxChoices: try group.cells[9].decode(Int.self), options: group.options)
                })
        }
    }

    func replaceModifierGroups(menuItemId: String, with groups: [ModifierGroup]) throws {
        // The item first: two managers replacing its groups at once take turns, and the second's
        // delete sees the first's groups.
        session.enqueue("SELECT 1 FROM menu_items WHERE id = \(menuItemId) FOR UPDATE")
        // Its options go with them (ON DELETE CASCADE).
        session.enqueue("DELETE FROM menu_modifier_groups WHERE menu_item_id = \(menuItemId)")
        insertModifierGroups(groups, menuItemId: menuItemId)
    }

    /// Inserts `groups` and their options for item `menuItemId`, at their index as position.
    func insertModifierGroups(_ groups: [ModifierGroup], menuItemId: String) {
        for (position, group) in groups.enumerated() {
            session.enqueue(
                """
                INSERT INTO menu_modifier_groups (menu_item_id, id, name, min_choices, max_choices, position)
                VALUES (\(menuItemId), \(group.id), \(group.name), \(group.minChoices), \(group.maxChoices), \(position))
                """)
            for (optionPosition, option) in group.options.enumerated() {
                session.enqueue(
                    """
                    INSERT INTO menu_modifier_options (menu_item_id, group_id, id, name, price_minor, position)
                    VALUES (\(menuItemId), \(group.id), \(option.id), \(option.name), \(option.priceMinor), \(optionPosition))
                    """)
            }
        }
    }
}
