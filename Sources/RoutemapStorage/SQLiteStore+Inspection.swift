import GRDB
import RoutemapDomain

extension SQLiteStore {
    /// The number of rows in `table`, one of the schema's tables (for tests and diagnostics).
    func rowCount(in table: String) throws -> Int {
        try read("counting \(table)") { transaction in
            try Int.fetchOne(transaction.database, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0
        }
    }
}

extension SQLiteTransaction {
    /// `PRAGMA synchronous` of this transaction's connection, now (1 = NORMAL, 2 = FULL): for
    /// tests that check a write's durability from inside its body.
    func synchronous() throws -> Int {
        try StorageError.wrapping("reading the synchronous setting") {
            try Int.fetchOne(database, sql: "PRAGMA synchronous") ?? -1
        }
    }
}
