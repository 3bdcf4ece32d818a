import GRDB
import RoutemapDomain

/// A row of `bill_lines`.
struct BillLineRow: FetchableRecord, TableRecord, Sendable {
    static let databaseTableName = "bill_lines"

    enum Columns {
        static let lineId = Column("line_id")
        static let billId = Column("bill_id")
        static let menuItemId = Column("menu_item_id")
        static let name = Column("name")
        static let quantity = Column("quantity")
        static let unitPriceMinor = Column("unit_price_minor")
        static let position = Column("position")
        /// Migration 0025's; absent from a file migrated only up to an earlier one.
        static let note = Column("note")
    }

    let lineId: String
    let billId: String
    let menuItemId: String
    let name: String
    let quantity: Int
    let unitPriceMinor: Int64
    let position: Int
    /// `nil` for a line without a note, and on a file from before migration 0025.
    let note: String?
    /// The line's modifiers (`bill_line_modifiers`), in order: read apart from the row.
    var modifiers: [BillLineModifier] = []

    init(row: Row) throws {
        lineId = try row.decode(forColumn: Columns.lineId)
        billId = try row.decode(forColumn: Columns.billId)
        menuItemId = try row.decode(forColumn: Columns.menuItemId)
        name = try row.decode(forColumn: Columns.name)
        quantity = try row.decode(forColumn: Columns.quantity)
        unitPriceMinor = try row.decode(forColumn: Columns.unitPriceMinor)
        position = try row.decode(forColumn: Columns.position)
        note = try row.decode(String?.self, forColumn: Columns.note)
    }

    /// The row that stores `line` at `position` (0-based) on bill `billId`.
    init(_ line: BillLine, billId: String, position: Int) {
        lineId = line.lineId
        self.billId = billId
        menuItemId = line.menuItemId
        name = line.name
        quantity = line.quantity
        unitPriceMinor = line.unitPriceMinor
        self.position = position
        modifiers = line.modifiers
        note = line.note
    }

    /// Inserts the row, with a cached statement (see ``BillRow/insert(_:)``). Only a line with a
    /// note names the note column (the others leave it NULL, as before migration 0025).
    func insert(_ database: Database) throws {
        if let note {
            try database.cachedStatement(
                sql: """
                    INSERT INTO bill_lines (line_id, bill_id, menu_item_id, name, quantity, unit_price_minor, position, note)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [lineId, billId, menuItemId, name, quantity, unitPriceMinor, position, note])
        } else {
            try database.cachedStatement(
                sql: """
                    INSERT INTO bill_lines (line_id, bill_id, menu_item_id, name, quantity, unit_price_minor, position)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [lineId, billId, menuItemId, name, quantity, unitPriceMinor, position])
        }
        // Only a line with modifiers writes more (none on the common path).
        for (index, modifier) in modifiers.enumerated() {
            try database.cachedStatement(
                sql: "INSERT INTO bill_line_modifiers (bill_id, line_id, position, option_id, name, price_minor) VALUES (?, ?, ?, ?, ?, ?)"
            ).execute(arguments: [billId, lineId, index, modifier.optionId, modifier.name, modifier.priceMinor])
        }
    }

    /// The domain's line. Throws ``StorageError/invalidRow(table:id:reason:)``.
    func billLine() throws -> BillLine {
        do {
            return try BillLine(
                lineId: lineId, menuItemId: menuItemId, name: name, quantity: quantity, unitPriceMinor: unitPriceMinor, modifiers: modifiers,
                note: note)
        } catch {
            throw StorageError.invalidRow(table: Self.databaseTableName, id: lineId, reason: error.description)
        }
    }
}
