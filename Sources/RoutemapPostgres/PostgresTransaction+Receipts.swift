import PostgresNIO
import RoutemapDomain
import RoutemapStorage

extension PostgresTransaction {
    /// Raises the one row of `receipt_counter` (migration 0019) and returns its new value.
    ///
    /// Gapless across nodes: the `UPDATE` locks the row until this transaction ends, so a
    /// payment on any node waits here for the one before it to commit or roll back, then reads
    /// the number it left (READ COMMITTED re-reads the updated row); a rollback, this one's or a
    /// retry's, undoes the raise, so no number is lost. The price: payments are serialized
    /// across nodes from this statement to their commit. `Till.pay` takes it last, after the
    /// idempotency key's and the bill's locks (the order every transaction takes them in, so no
    /// deadlock); after it come only the payment's insert, pay's answer recorded under its key
    /// and the commit.
    func nextReceiptNumber() throws -> Int64 {
        guard isTransaction else { throw InvariantViolation("a receipt number is taken only in a write transaction") }
        guard let number = try session.rows(prepared: ReceiptNumberTake())
            .first.map({ try $0.decode(Int64.self) })
        else { throw InvariantViolation("receipt_counter has no row (migration 0019 makes it)") }
        return number
    }
}
