/// Reads and writes inside one ``POSStore/write(_:)`` transaction.
public protocol POSTransaction {
    /// The menu item with `id`, or `nil`.
    func menuItem(id: String) throws -> MenuItem?
    /// The bill with `id`, or `nil`.
    func bill(id: String) throws -> Bill?
    /// The most recently created bill that is open or checked out, or `nil`.
    func newestUnpaidBill() throws -> Bill?
    /// Saves a new bill with its lines.
    func insert(_ bill: Bill) throws
    /// Saves an existing bill's status, totals, version and lines. Throws if the bill is
    /// missing or its stored version is not older than `bill.version` (a stale write).
    func update(_ bill: Bill) throws
    /// Records a payment (at most one per bill).
    func insert(_ payment: Payment) throws
}
