import GRDB
import RoutemapDomain

/// A row of `payments`.
struct PaymentRow: FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "payments"

    enum Columns {
        static let id = Column("id")
        static let billId = Column("bill_id")
        static let receiptNumber = Column("receipt_number")
        static let method = Column("method")
        static let amountMinor = Column("amount_minor")
        static let tipMinor = Column("tip_minor")
        static let tenderedMinor = Column("tendered_minor")
        static let changeMinor = Column("change_minor")
        static let createdAt = Column("created_at")
        static let deviceId = Column("device_id")
    }

    let id: String
    let billId: String
    let receiptNumber: Int64
    let method: String
    let amountMinor: Int64
    let tipMinor: Int64
    let tenderedMinor: Int64
    let changeMinor: Int64
    let createdAt: String
    /// `nil` for a payment from before migration 0024, and on a file not migrated to it.
    let deviceId: String?

    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        billId = try row.decode(forColumn: Columns.billId)
        receiptNumber = try row.decode(forColumn: Columns.receiptNumber)
        method = try row.decode(forColumn: Columns.method)
        amountMinor = try row.decode(forColumn: Columns.amountMinor)
        tipMinor = try row.decode(forColumn: Columns.tipMinor)
        tenderedMinor = try row.decode(forColumn: Columns.tenderedMinor)
        changeMinor = try row.decode(forColumn: Columns.changeMinor)
        createdAt = try row.decode(forColumn: Columns.createdAt)
        deviceId = try row.decode(String?.self, forColumn: Columns.deviceId)
    }

    /// The row that records `payment`.
    init(_ payment: Payment) {
        id = payment.id
        billId = payment.billId
        receiptNumber = payment.receiptNumber
        method = payment.method.rawValue
        amountMinor = payment.amountMinor
        tipMinor = payment.tipMinor
        tenderedMinor = payment.tenderedMinor
        changeMinor = payment.changeMinor
        createdAt = Timestamp.format(payment.createdAt)
        deviceId = payment.deviceId
    }

    func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.billId] = billId
        container[Columns.receiptNumber] = receiptNumber
        container[Columns.method] = method
        container[Columns.amountMinor] = amountMinor
        container[Columns.tipMinor] = tipMinor
        container[Columns.tenderedMinor] = tenderedMinor
        container[Columns.changeMinor] = changeMinor
        container[Columns.createdAt] = createdAt
        container[Columns.deviceId] = deviceId
    }

    /// The domain's payment. Throws ``StorageError/invalidRow(table:id:reason:)``.
    func payment() throws -> Payment {
        let method = try PaymentMethod(stored: method, paymentId: id)
        guard let createdAt = Timestamp.parse(createdAt) else {
            throw StorageError.invalidRow(table: Self.databaseTableName, id: id, reason: "created_at '\(self.createdAt)'")
        }
        return Payment(
            id: id, billId: billId, receiptNumber: receiptNumber, method: method, amountMinor: amountMinor, tipMinor: tipMinor,
            tenderedMinor: tenderedMinor, changeMinor: changeMinor, createdAt: createdAt, deviceId: deviceId)
    }
}
