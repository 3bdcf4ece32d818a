import GRDB

extension SQLiteStore {
    /// How many bills are open and how many checked out (not yet paid), for metrics.
    public func unpaidBillCounts() throws -> (open: Int, checkedOut: Int) {
        try read("counting unpaid bills") { transaction in
            let rows = try Row.fetchAll(
                transaction.database, sql: "SELECT status, count(*) AS n FROM bills WHERE status IN ('open', 'checked_out') GROUP BY status")
            var counts = (open: 0, checkedOut: 0)
            for row in rows {
                let status: String = row["status"], count: Int = row["n"]
                if status == "open" { counts.open = count } else { counts.checkedOut = count }
            }
            return counts
        }
    }
}
