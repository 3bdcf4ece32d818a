import GRDB
import RoutemapDomain

extension SQLiteTransaction {
    /// One more than the highest receipt number recorded, by `payments_receipt_number`
    /// (migration 0019): the file has one writer, so no other payment can take the same number
    /// before this transaction commits, and a transaction rolled back records none, so numbers
    /// run without gaps. The index's UNIQUE refuses a second payment with one number all the same.
    func nextReceiptNumber() throws -> Int64 {
        try StorageError.wrapping("numbering a receipt") {
            try Int64.fetchOne(database.cachedStatement(sql: "SELECT coalesce(max(receipt_number), 0) + 1 FROM payments")) ?? 1
        }
    }
}
