import Foundation
import PostgresNIO
import RoutemapDomain
import RoutemapStorage

// Cash drawer shifts on PostgreSQL (migration 0024). In a write, reading a device's open shift
// first takes the device's drawer lock (an advisory lock), so its shift changes run one after
// the other on every node and two opens cannot both find none.
extension PostgresStore {
    public func shift(id: String) throws -> DrawerShift? {
        try reading("reading shift \(id)") { try $0.shift(id: id) }
    }

    public func openShift(deviceId: String) throws -> DrawerShift? {
        try reading("reading the open shift of device \(deviceId)") { try $0.openShift(deviceId: deviceId) }
    }

    public func shifts(deviceId: String?, after cursor: ShiftCursor?, limit: Int) throws -> [DrawerShift] {
        try reading("listing shifts") { try $0.shifts(deviceId: deviceId, after: cursor, limit: limit) }
    }

    /// One REPEATABLE READ, READ ONLY transaction: its three sums share one snapshot.
    public func drawerFigures(of shift: DrawerShift) throws -> DrawerFigures {
        try reading("summing up shift \(shift.id)") { transaction in try transaction.inReadOnlySnapshot { try transaction.drawerFigures(of: shift) } }
    }
}

extension PostgresTransaction {
    private static let shiftColumns =
        "id, device_id, opened_at, opening_float_minor, closed_at, counted_cash_minor, expected_cash_minor"

    /// By its primary key.
    func shift(id: String) throws -> DrawerShift? {
        guard !id.utf8.contains(0) else { return nil }
        return try session.rows("SELECT \(unescaped: Self.shiftColumns) FROM drawer_shifts WHERE id = \(id)").first.map(Self.shift)
    }

    /// By `drawer_shifts_open_by_device` (its WHERE clause); in a write, after the device's drawer lock.
    func openShift(deviceId: String) throws -> DrawerShift? {
        if isTransaction { try lock(.drawerShift, deviceId) }
        return try session.rows(
            "SELECT \(unescaped: Self.shiftColumns) FROM drawer_shifts WHERE device_id = \(deviceId) AND closed_at IS NULL"
        ).first.map(Self.shift)
    }

    /// Newest first, then by id in byte order (`COLLATE "C"`, as SQLite compares), after `cursor`.
    func shifts(deviceId: String?, after cursor: ShiftCursor?, limit: Int) throws -> [DrawerShift] {
        guard !(deviceId?.utf8.contains(0) ?? false), !(cursor?.id.utf8.contains(0) ?? false) else { return [] }
        return try session.rows(
            """
            SELECT \(unescaped: Self.shiftColumns) FROM drawer_shifts
            WHERE (\(deviceId)::text IS NULL OR device_id = \(deviceId)::text)
              AND (\(cursor?.openedAt)::timestamptz IS NULL OR opened_at < \(cursor?.openedAt)::timestamptz
                   OR (opened_at = \(cursor?.openedAt)::timestamptz AND id COLLATE "C" < \(cursor?.id)::text COLLATE "C"))
            ORDER BY opened_at DESC, id COLLATE "C" DESC LIMIT \(limit)
            """
        ).map(Self.shift)
    }

    func insert(_ shift: DrawerShift) throws {
        session.enqueue(
            """
            INSERT INTO drawer_shifts (id, device_id, opened_at, opening_float_minor)
            VALUES (\(shift.id), \(shift.deviceId), \(shift.openedAt), \(shift.openingFloatMinor))
            """)
    }

    /// Only over the shift while it is open: a shift is closed once.
    func close(_ shift: DrawerShift) throws {
        guard let closing = shift.closing else { throw InvariantViolation("shift \(shift.id) is saved as closed without its close") }
        session.enqueue(
            """
            UPDATE drawer_shifts
            SET closed_at = \(closing.closedAt), counted_cash_minor = \(closing.countedCashMinor), expected_cash_minor = \(closing.expectedCashMinor)
            WHERE id = \(shift.id) AND closed_at IS NULL
            """
        ) { changed in
            guard changed == 1 else { throw InvariantViolation("shift \(shift.id) is not open to be closed") }
        }
    }

    func insert(_ movement: DrawerMovement) throws {
        session.enqueue(
            """
            INSERT INTO drawer_movements (id, shift_id, kind, amount_minor, reason, device_id, created_at)
            VALUES (\(movement.id), \(movement.shiftId), \(movement.kind.rawValue), \(movement.amountMinor), \(movement.reason),
                    \(movement.deviceId), \(movement.createdAt))
            """)
    }

    /// The sums of ``DrawerFigures`` by aggregate queries: payments by `payments_created_at`
    /// and refunds by `refunds_created_at` (0017, 0018) in the shift's time, both ends included
    /// (``DrawerShift/covers(deviceId:at:)``), then its device's; movements by
    /// `drawer_movements_shift_id`. `sum()` of bigints is numeric, and its cast back to bigint
    /// fails (22003) rather than wrap.
    func drawerFigures(of shift: DrawerShift) throws -> DrawerFigures {
        let from = shift.openedAt, to = shift.end, device = shift.deviceId
        var figures = DrawerFigures()
        for row in try session.rows(
            """
            SELECT method, count(*),
                   coalesce(sum(CASE method WHEN 'cash' THEN tendered_minor - change_minor ELSE amount_minor + tip_minor END), 0)::bigint
            FROM payments WHERE created_at >= \(from) AND created_at <= \(to) AND device_id = \(device)
            GROUP BY method
            """)
        {
            let (method, count, amount) = try row.decode((String, Int, Int64).self)
            let totals = SalesReport.MethodTotals(count: count, amountMinor: amount)
            switch try PaymentMethod(stored: method, paymentId: "?") {
            case .cash: figures.cashTaken = totals
            case .card: figures.cardTaken = totals
            }
        }
        if let row = try session.rows(
            """
            SELECT count(*), coalesce(sum(r.amount_minor), 0)::bigint
            FROM refunds r JOIN payments p ON p.id = r.payment_id
            WHERE r.created_at >= \(from) AND r.created_at <= \(to) AND r.device_id = \(device) AND p.method = 'cash'
            """
        ).first {
            let (count, amount) = try row.decode((Int, Int64).self)
            figures.cashRefunded = SalesReport.MethodTotals(count: count, amountMinor: amount)
        }
        for row in try session.rows(
            "SELECT kind, count(*), coalesce(sum(amount_minor), 0)::bigint FROM drawer_movements WHERE shift_id = \(shift.id) GROUP BY kind")
        {
            let (kind, count, amount) = try row.decode((String, Int, Int64).self)
            let totals = SalesReport.MethodTotals(count: count, amountMinor: amount)
            switch DrawerMovement.Kind(rawValue: kind) {
            case .payIn: figures.payIns = totals
            case .payOut: figures.payOuts = totals
            case nil: throw StorageError.invalidRow(table: "drawer_movements", id: shift.id, reason: "kind '\(kind)'")
            }
        }
        return figures
    }

    /// The shift in `row` (``shiftColumns``).
    private static func shift(_ row: PostgresRow) throws -> DrawerShift {
        let (id, device, openedAt, float, closedAt, counted, expected) = try row.decode(
            (String, String, Date, Int64, Date?, Int64?, Int64?).self)
        var closing: DrawerShift.Closing?
        if let closedAt {
            guard let counted, let expected else {
                throw StorageError.invalidRow(table: "drawer_shifts", id: id, reason: "closed without its count")
            }
            closing = DrawerShift.Closing(
                closedAt: closedAt.roundedToMilliseconds, countedCashMinor: counted, expectedCashMinor: expected)
        }
        return DrawerShift(
            id: id, deviceId: device, openedAt: openedAt.roundedToMilliseconds, openingFloatMinor: float, closing: closing)
    }
}
