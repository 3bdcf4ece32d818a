import Foundation
import GRDB
import RoutemapDomain

extension SQLiteStore {
    /// One read transaction (a snapshot of the WAL: every statement in it sees the same commits).
    public func salesFigures(in period: SalesPeriod) throws -> SalesFigures {
        try read("summing up the sales of a period") { try $0.salesFigures(in: period) }
    }
}

extension SQLiteTransaction {
    /// The sums of a sales report, by aggregate queries. The takings and tips are every payment's
    /// of the period; the sales, every bill whose completing payment is in it
    /// (``completingPayment``). A bill's gross subtotal is its
    /// `subtotal_minor` (discounted, migration 0021) plus its `discount_minor`. Timestamps are fixed-width UTC text
    /// (``Timestamp``), so `>= from AND < to` on the text is the period [from, to). Payments are
    /// found by `payments_created_at`, voided bills by `bills_voided_at` (migration 0017), refunds by
    /// `refunds_created_at` (0018).
    ///
    /// SQLite's `sum()` of integers raises an error on overflow, but `*` of integers that
    /// overflows gives a REAL, and so would its sum: every sum is read as an integer only when
    /// SQLite stored it as one (``exactInteger(_:_:)``), so a wrapped or rounded number never
    /// comes out.
    func salesFigures(in period: SalesPeriod) throws -> SalesFigures {
        let range: StatementArguments = [Timestamp.format(period.from), Timestamp.format(period.to)]
        var figures = SalesFigures()
        try StorageError.wrapping("summing up the payments of a period") {
            for row in try Row.fetchAll(database, sql: Self.paymentsByMethodSQL, arguments: range) {
                figures[payments: try PaymentMethod(stored: row[0], paymentId: "?")] = SalesReport.Takings(
                    count: try Self.exactInteger(row, 1), amountMinor: try Self.exactInteger(row, 2),
                    tenderedMinor: try Self.exactInteger(row, 3), changeMinor: try Self.exactInteger(row, 4))
                figures[tips: try PaymentMethod(stored: row[0], paymentId: "?")] = SalesReport.MethodTotals(
                    count: try Self.exactInteger(row, 5), amountMinor: try Self.exactInteger(row, 6))
            }
        }
        try StorageError.wrapping("summing up the bills paid in a period") {
            let totals = try Row.fetchOne(
                database,
                sql: """
                    SELECT count(*), coalesce(sum(b.subtotal_minor + b.discount_minor), 0), coalesce(sum(b.tax_minor), 0),
                           coalesce(sum(b.total_minor), 0), count(*) FILTER (WHERE b.discount_minor > 0), coalesce(sum(b.discount_minor), 0)
                    FROM payments p JOIN bills b ON b.id = p.bill_id
                    WHERE p.created_at >= ? AND p.created_at < ? AND \(Self.completingPayment)
                    """, arguments: range)!
            // By menu item: the lines of the bills paid in the period, with the name of the latest
            // paid line (by payment time, then payment id, then position on the bill).
            let items = try Row.fetchAll(
                database,
                sql: """
                    WITH sold AS (
                        SELECT l.menu_item_id, l.name, l.quantity, l.quantity * l.unit_price_minor AS amount,
                               row_number() OVER (
                                   PARTITION BY l.menu_item_id ORDER BY p.created_at DESC, p.id DESC, l.position DESC) AS recency
                        FROM payments p JOIN bills b ON b.id = p.bill_id JOIN bill_lines l ON l.bill_id = p.bill_id
                        WHERE p.created_at >= ? AND p.created_at < ? AND \(Self.completingPayment))
                    SELECT menu_item_id, max(CASE WHEN recency = 1 THEN name END), sum(quantity), sum(amount)
                    FROM sold GROUP BY menu_item_id
                    """, arguments: range)
            figures.sales = SalesReport.Sales(
                bills: try Self.exactInteger(totals, 0), subtotalMinor: try Self.exactInteger(totals, 1),
                discounts: SalesReport.MethodTotals(count: try Self.exactInteger(totals, 4), amountMinor: try Self.exactInteger(totals, 5)),
                taxMinor: try Self.exactInteger(totals, 2), totalMinor: try Self.exactInteger(totals, 3),
                items: try items.map { row in
                    SalesReport.ItemSales(
                        menuItemId: row[0], name: row[1], quantity: try Self.exactInteger(row, 2), amountMinor: try Self.exactInteger(row, 3))
                })
        }
        try StorageError.wrapping("summing up the bills voided in a period") {
            let row = try Row.fetchOne(database, sql: Self.voidedBillsSQL, arguments: range)!
            figures.voids = SalesReport.Voids(count: try Self.exactInteger(row, 0), totalMinor: try Self.exactInteger(row, 1))
        }
        try StorageError.wrapping("summing up the refunds of a period") {
            for row in try Row.fetchAll(database, sql: Self.refundsByMethodSQL, arguments: range) {
                figures[refunds: try PaymentMethod(stored: row[0], paymentId: "?")] = SalesReport.MethodTotals(
                    count: try Self.exactInteger(row, 1), amountMinor: try Self.exactInteger(row, 2))
            }
        }
        try StorageError.wrapping("summing up the unsettled bills") {
            // The WHERE clause is the partial index's (bills_unsettled_by_device_selected_at), word
            // for word: only the unsettled bills are read.
            let rows = try Row.fetchAll(
                database,
                sql: """
                    SELECT status, count(*), coalesce(sum(total_minor - paid_minor), 0) FROM bills
                    WHERE status IN ('open', 'checked_out')
                    GROUP BY status
                    """)
            var open = 0, checkedOut = 0, checkedOutTotal: Int64 = 0
            for row in rows {
                let status: String = row[0]
                if status == BillStatus.open.rawValue {
                    open = try Self.exactInteger(row, 1)
                } else {
                    checkedOut = try Self.exactInteger(row, 1)
                    checkedOutTotal = try Self.exactInteger(row, 2)
                }
            }
            figures.unsettled = SalesReport.Unsettled(open: open, checkedOut: checkedOut, checkedOutTotalMinor: checkedOutTotal)
        }
        return figures
    }

    /// Which payment `p` of bill `b` makes the bill a sale: the one that completed it (a paid
    /// bill's last, by `payments_bill_id`, migration 0022). A split bill is one sale, made when
    /// its last payment was; the earlier parts are takings of their own periods.
    static let completingPayment = """
        b.status = 'paid'
        AND NOT EXISTS (SELECT 1 FROM payments later WHERE later.bill_id = p.bill_id AND later.receipt_number > p.receipt_number)
        """

    /// The payments of the period [`?1`, `?2`) by method: count and sums, then their tips: how
    /// many carried one, and their sum.
    static let paymentsByMethodSQL = """
        SELECT method, count(*), coalesce(sum(amount_minor), 0), coalesce(sum(tendered_minor), 0), coalesce(sum(change_minor), 0),
               count(*) FILTER (WHERE tip_minor > 0), coalesce(sum(tip_minor), 0)
        FROM payments WHERE created_at >= ? AND created_at < ?
        GROUP BY method
        """

    /// The refunds made in the period [`?1`, `?2`) (found by `refunds_created_at`, migration
    /// 0018) by their payment's method: count and sum.
    static let refundsByMethodSQL = """
        SELECT p.method, count(*), coalesce(sum(r.amount_minor), 0)
        FROM refunds r JOIN payments p ON p.id = r.payment_id
        WHERE r.created_at >= ? AND r.created_at < ?
        GROUP BY p.method
        """

    /// The bills voided in the period [`?1`, `?2`): how many, and the total they held.
    static let voidedBillsSQL = """
        SELECT count(*), coalesce(sum(total_minor), 0) FROM bills
        WHERE voided_at >= ? AND voided_at < ?
        """

    /// Column `index` of `row` when SQLite holds it as an integer that fits in `N` (a sales
    /// report's or a shift's sum); a REAL (an integer product that overflowed) or anything else
    /// is an ``InvariantViolation``.
    static func exactInteger<N: FixedWidthInteger>(_ row: Row, _ index: Int) throws -> N {
        let value: DatabaseValue = row[index]
        guard case .int64(let integer) = value.storage, let exact = N(exactly: integer) else {
            throw InvariantViolation("a sales sum is not a 64-bit integer: \(value)")
        }
        return exact
    }
}
