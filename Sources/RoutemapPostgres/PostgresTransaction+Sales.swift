import Foundation
import PostgresNIO
import RoutemapDomain
import RoutemapStorage

extension PostgresStore {
    /// One REPEATABLE READ, READ ONLY transaction: its statements share one snapshot, so the
    /// report's numbers agree with each other, and it takes no lock a write would wait for.
    public func salesFigures(in period: SalesPeriod) throws -> SalesFigures {
        try reading("summing up the sales of a period") { try $0.salesFigures(in: period) }
    }
}

extension PostgresTransaction {
    /// The sums of a sales report, by aggregate queries in a read-only snapshot of their own.
    /// Payments are found by `payments_created_at`, voided bills by `bills_voided_at`
    /// (migration 0017), refunds by `refunds_created_at` (0018). `sum()` of bigints is numeric,
    /// never wrapped; its cast back to bigint, like a line's `quantity * unit_price_minor`, fails
    /// with 22003 (out of range) rather than give a wrong number.
    func salesFigures(in period: SalesPeriod) throws -> SalesFigures {
        // A write transaction is READ COMMITTED: its statements would not share a snapshot.
        guard !isTransaction else { throw InvariantViolation("a sales report is read in a snapshot of its own, not inside a write") }
        return try inReadOnlySnapshot { try sums(period) }
    }

    /// `body`'s statements in one REPEATABLE READ, READ ONLY transaction of their own: one
    /// snapshot, and no lock a write would wait for. Not inside a write.
    func inReadOnlySnapshot<T>(_ body: () throws -> T) throws -> T {
        _ = try session.command("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        do {
            let result = try body()
            guard try session.command("COMMIT") == "COMMIT" else { throw InvariantViolation("a read-only transaction did not commit") }
            return result
        } catch {
            session.rollback()
            throw error
        }
    }

    /// Which payment `p` of bill `b` makes the bill a sale: the one that completed it (a paid
    /// bill's last, by `payments_bill_id`, migration 0022). A split bill is one sale, made when
    /// its last payment was; the earlier parts are takings of their own periods.
    static let completingPayment = """
        b.status = 'paid'
        AND NOT EXISTS (SELECT 1 FROM payments later WHERE later.bill_id = p.bill_id AND later.receipt_number > p.receipt_number)
        """

    private func sums(_ period: SalesPeriod) throws -> SalesFigures {
        let from = period.from, to = period.to
        var figures = SalesFigures()
        for row in try session.rows(
            """
            SELECT method, count(*), coalesce(sum(amount_minor), 0)::bigint, coalesce(sum(tendered_minor), 0)::bigint,
                   coalesce(sum(change_minor), 0)::bigint, count(*) FILTER (WHERE tip_minor > 0), coalesce(sum(tip_minor), 0)::bigint
            FROM payments WHERE created_at >= \(from) AND created_at < \(to)
            GROUP BY method
            """)
        {
            let (methodText, count, amount, tendered, change, tipped, tips) = try row.decode((String, Int, Int64, Int64, Int64, Int, Int64).self)
            let method = try PaymentMethod(stored: methodText, paymentId: "?")
            figures[payments: method] = SalesReport.Takings(count: count, amountMinor: amount, tenderedMinor: tendered, changeMinor: change)
            figures[tips: method] = SalesReport.MethodTotals(count: tipped, amountMinor: tips)
        }
        // A bill's gross subtotal is its subtotal_minor (discounted, migration 0021) plus its discount_minor.
        let totals: (Int, Int64, Int64, Int64, Int, Int64) = try session.rows(
            """
            SELECT count(*), coalesce(sum(b.subtotal_minor + b.discount_minor), 0)::bigint, coalesce(sum(b.tax_minor), 0)::bigint,
                   coalesce(sum(b.total_minor), 0)::bigint, count(*) FILTER (WHERE b.discount_minor > 0),
                   coalesce(sum(b.discount_minor), 0)::bigint
            FROM payments p JOIN bills b ON b.id = p.bill_id
            WHERE p.created_at >= \(from) AND p.created_at < \(to) AND \(unescaped: Self.completingPayment)
            """
        ).first.map { row -> (Int, Int64, Int64, Int64, Int, Int64) in try row.decode((Int, Int64, Int64, Int64, Int, Int64).self) }
            ?? (0, 0, 0, 0, 0, 0)
        // By menu item: the lines of the bills paid in the period, with the name of the latest
        // paid line (by payment time, then payment id in byte order as SQLite compares, then position).
        let items = try session.rows(
            """
            WITH sold AS (
                SELECT l.menu_item_id, l.name, l.quantity, l.quantity * l.unit_price_minor AS amount,
                       row_number() OVER (
                           PARTITION BY l.menu_item_id ORDER BY p.created_at DESC, p.id COLLATE "C" DESC, l.position DESC) AS recency
                FROM payments p JOIN bills b ON b.id = p.bill_id JOIN bill_lines l ON l.bill_id = p.bill_id
                WHERE p.created_at >= \(from) AND p.created_at < \(to) AND \(unescaped: Self.completingPayment))
            SELECT menu_item_id, max(CASE WHEN recency = 1 THEN name END), sum(quantity)::bigint, sum(amount)::bigint
            FROM sold GROUP BY menu_item_id
            """
        ).map { row in
            let (id, name, quantity, amount) = try row.decode((String, String, Int, Int64).self)
            return SalesReport.ItemSales(menuItemId: id, name: name, quantity: quantity, amountMinor: amount)
        }
        figures.sales = SalesReport.Sales(
            bills: totals.0, subtotalMinor: totals.1, discounts: SalesReport.MethodTotals(count: totals.4, amountMinor: totals.5),
            taxMinor: totals.2, totalMinor: totals.3, items: items)
        let voids: (Int, Int64) = try session.rows(
            """
            SELECT count(*), coalesce(sum(total_minor), 0)::bigint FROM bills
            WHERE voided_at >= \(from) AND voided_at < \(to)
            """
        ).first.map { row -> (Int, Int64) in try row.decode((Int, Int64).self) } ?? (0, 0)
        figures.voids = SalesReport.Voids(count: voids.0, totalMinor: voids.1)
        for row in try session.rows(
            """
            SELECT p.method, count(*), coalesce(sum(r.amount_minor), 0)::bigint
            FROM refunds r JOIN payments p ON p.id = r.payment_id
            WHERE r.created_at >= \(from) AND r.created_at < \(to)
            GROUP BY p.method
            """)
        {
            let (method, count, amount) = try row.decode((String, Int, Int64).self)
            figures[refunds: try PaymentMethod(stored: method, paymentId: "?")] = SalesReport.MethodTotals(count: count, amountMinor: amount)
        }
        var open = 0, checkedOut = 0, checkedOutTotal: Int64 = 0
        // The WHERE clause is the partial index's (bills_unsettled_by_device_selected_at).
        for row in try session.rows(
            "SELECT status, count(*), coalesce(sum(total_minor - paid_minor), 0)::bigint FROM bills WHERE \(unescaped: Self.unsettled) GROUP BY status")
        {
            let (status, count, total) = try row.decode((String, Int, Int64).self)
            if status == BillStatus.open.rawValue {
                open = count
            } else {
                checkedOut = count
                checkedOutTotal = total
            }
        }
        figures.unsettled = SalesReport.Unsettled(open: open, checkedOut: checkedOut, checkedOutTotalMinor: checkedOutTotal)
        return figures
    }
}
