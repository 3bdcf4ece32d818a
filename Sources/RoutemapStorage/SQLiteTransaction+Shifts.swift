import Foundation
import GRDB
import RoutemapDomain

// Cash drawer shifts on SQLite (migration 0024). One writer at a time: a device's open shift,
// read first in every change of its shifts, cannot change meanwhile.
extension SQLiteStore {
    public func shift(id: String) throws -> DrawerShift? {
        try read("reading shift \(id)") { try $0.shift(id: id) }
    }

    public func openShift(deviceId: String) throws -> DrawerShift? {
        try read("reading the open shift of device \(deviceId)") { try $0.openShift(deviceId: deviceId) }
    }

    /// By `drawer_shifts_opened_at` when for one device; newest first, then by id (byte order).
    public func shifts(deviceId: String?, after cursor: ShiftCursor?, limit: Int) throws -> [DrawerShift] {
        try read("listing shifts") { transaction in
            try StorageError.wrapping("listing shifts") {
                try Row.fetchAll(
                    transaction.database.cachedStatement(
                        sql: """
                            SELECT \(SQLiteTransaction.shiftColumns) FROM drawer_shifts
                            WHERE (?1 IS NULL OR device_id = ?1) AND (?2 IS NULL OR opened_at < ?2 OR (opened_at = ?2 AND id < ?3))
                            ORDER BY opened_at DESC, id DESC LIMIT ?4
                            """),
                    arguments: [deviceId, cursor.map { Timestamp.format($0.openedAt) }, cursor?.id, limit]
                ).map(SQLiteTransaction.shift)
            }
        }
    }

    /// One read transaction: its three sums see the same commits.
    public func drawerFigures(of shift: DrawerShift) throws -> DrawerFigures {
        try read("summing up shift \(shift.id)") { try $0.drawerFigures(of: shift) }
    }
}

extension SQLiteTransaction {
    /// By its primary key.
    func shift(id: String) throws -> DrawerShift? {
        try StorageError.wrapping("reading shift \(id)") {
            try Row.fetchOne(database.cachedStatement(sql: "SELECT \(Self.shiftColumns) FROM drawer_shifts WHERE id = ?"), arguments: [id])
                .map(Self.shift)
        }
    }

    /// By `drawer_shifts_open_by_device` (its WHERE clause, word for word).
    func openShift(deviceId: String) throws -> DrawerShift? {
        try StorageError.wrapping("reading the open shift of device \(deviceId)") {
            try Row.fetchOne(
                database.cachedStatement(sql: "SELECT \(Self.shiftColumns) FROM drawer_shifts WHERE device_id = ? AND closed_at IS NULL"),
                arguments: [deviceId]
            ).map(Self.shift)
        }
    }

    func insert(_ shift: DrawerShift) throws {
        try StorageError.wrapping("recording shift \(shift.id) of device \(shift.deviceId)") {
            try database.cachedStatement(
                sql: """
                    INSERT INTO drawer_shifts (id, device_id, opened_at, opening_float_minor)
                    VALUES (?, ?, ?, ?)
                    """
            ).execute(arguments: [shift.id, shift.deviceId, Timestamp.format(shift.openedAt), shift.openingFloatMinor])
        }
    }

    /// Only over the shift while it is open: a shift is closed once.
    func close(_ shift: DrawerShift) throws {
        guard let closing = shift.closing else { throw InvariantViolation("shift \(shift.id) is saved as closed without its close") }
        try StorageError.wrapping("closing shift \(shift.id)") {
            try database.cachedStatement(
                sql: """
                    UPDATE drawer_shifts SET closed_at = ?, counted_cash_minor = ?, expected_cash_minor = ?
                    WHERE id = ? AND closed_at IS NULL
                    """
            ).execute(arguments: [
                Timestamp.format(closing.closedAt), closing.countedCashMinor, closing.expectedCashMinor, shift.id,
            ])
            guard database.changesCount == 1 else { throw InvariantViolation("shift \(shift.id) is not open to be closed") }
        }
    }

    func insert(_ movement: DrawerMovement) throws {
        try StorageError.wrapping("recording cash movement \(movement.id) of shift \(movement.shiftId)") {
            try database.cachedStatement(
                sql: """
                    INSERT INTO drawer_movements (id, shift_id, kind, amount_minor, reason, device_id, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                movement.id, movement.shiftId, movement.kind.rawValue, movement.amountMinor, movement.reason, movement.deviceId,
                Timestamp.format(movement.createdAt),
            ])
        }
    }

    /// The sums of ``DrawerFigures`` by aggregate queries: payments by `payments_created_at`
    /// and refunds by `refunds_created_at` (0017, 0018) in the shift's time, then its device's;
    /// movements by `drawer_movements_shift_id`. Timestamps are fixed-width text, so `>= ? AND
    /// <= ?` on it is the shift's time, both ends included (``DrawerShift/covers(deviceId:at:)``).
    func drawerFigures(of shift: DrawerShift) throws -> DrawerFigures {
        let window: StatementArguments = [Timestamp.format(shift.openedAt), Timestamp.format(shift.end), shift.deviceId]
        var figures = DrawerFigures()
        try StorageError.wrapping("summing up the payments of shift \(shift.id)") {
            for row in try Row.fetchAll(database.cachedStatement(sql: Self.shiftPaymentsSQL), arguments: window) {
                let totals = SalesReport.MethodTotals(count: try Self.exactInteger(row, 1), amountMinor: try Self.exactInteger(row, 2))
                switch try PaymentMethod(stored: row[0], paymentId: "?") {
                case .cash: figures.cashTaken = totals
                case .card: figures.cardTaken = totals
                }
            }
            let refunds = try Row.fetchOne(database.cachedStatement(sql: Self.shiftCashRefundsSQL), arguments: window)!
            figures.cashRefunded = SalesReport.MethodTotals(count: try Self.exactInteger(refunds, 0), amountMinor: try Self.exactInteger(refunds, 1))
            for row in try Row.fetchAll(database.cachedStatement(sql: Self.shiftMovementsSQL), arguments: [shift.id]) {
                let totals = SalesReport.MethodTotals(count: try Self.exactInteger(row, 1), amountMinor: try Self.exactInteger(row, 2))
                switch DrawerMovement.Kind(rawValue: row[0]) {
                case .payIn: figures.payIns = totals
                case .payOut: figures.payOuts = totals
                case nil: throw StorageError.invalidRow(table: "drawer_movements", id: shift.id, reason: "kind '\(String(describing: row[0] as String?))'")
                }
            }
        }
        return figures
    }

    /// The payments of device `?3` in [`?1`, `?2`] by method: how many, and what they took:
    /// for cash what stayed in the drawer (tendered − change), for card the charge (amount + tip).
    static let shiftPaymentsSQL = """
        SELECT method, count(*),
               coalesce(sum(CASE method WHEN 'cash' THEN tendered_minor - change_minor ELSE amount_minor + tip_minor END), 0)
        FROM payments WHERE created_at >= ? AND created_at <= ? AND device_id = ?
        GROUP BY method
        """

    /// The cash refunds device `?3` made in [`?1`, `?2`]: how many, and their sum.
    static let shiftCashRefundsSQL = """
        SELECT count(*), coalesce(sum(r.amount_minor), 0)
        FROM refunds r JOIN payments p ON p.id = r.payment_id
        WHERE r.created_at >= ? AND r.created_at <= ? AND r.device_id = ? AND p.method = 'cash'
        """

    /// The movements of shift `?` by kind: how many, and their sum.
    static let shiftMovementsSQL = "SELECT kind, count(*), coalesce(sum(amount_minor), 0) FROM drawer_movements WHERE shift_id = ? GROUP BY kind"

    static let shiftColumns =
        "id, device_id, opened_at, opening_float_minor, closed_at, counted_cash_minor, expected_cash_minor"

    /// The shift in `row` (``shiftColumns``). Throws ``StorageError/invalidRow(table:id:reason:)``.
    static func shift(_ row: Row) throws -> DrawerShift {
        let id: String = row[0]
        func date(_ text: String) throws -> Date {
            guard let date = Timestamp.parse(text) else { throw StorageError.invalidRow(table: "drawer_shifts", id: id, reason: "timestamp '\(text)'") }
            return date
        }
        var closing: DrawerShift.Closing?
        if let closedAt: String = row[4] {
            guard let counted: Int64 = row[5], let expected: Int64 = row[6] else {
                throw StorageError.invalidRow(table: "drawer_shifts", id: id, reason: "closed without its count")
            }
            closing = DrawerShift.Closing(closedAt: try date(closedAt), countedCashMinor: counted, expectedCashMinor: expected)
        }
        return DrawerShift(
            id: id, deviceId: row[1], openedAt: try date(row[2]), openingFloatMinor: row[3], closing: closing)
    }
}
