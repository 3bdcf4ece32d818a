import Foundation
import GRDB
import RoutemapDomain

extension SQLiteStore {
    public func refunds(billId: String) throws -> [Refund] {
        try read("reading the refunds of bill \(billId)") { try $0.refunds(billId: billId) }
    }
}

extension SQLiteTransaction {
    func insert(_ refund: Refund) throws {
        try StorageError.wrapping("recording refund \(refund.id) of bill \(refund.billId)") {
            try database.cachedStatement(
                sql: """
                    INSERT INTO refunds (id, bill_id, payment_id, amount_minor, reason, device_id, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                refund.id, refund.billId, refund.paymentId, refund.amountMinor, refund.reason, refund.deviceId,
                Timestamp.format(refund.createdAt),
            ])
        }
    }

    /// By `refunds_bill_id` (migration 0018), with each refund's method from its payment; in a
    /// write, this transaction's own refunds included.
    func refunds(billId: String) throws -> [Refund] {
        try StorageError.wrapping("reading the refunds of bill \(billId)") {
            try Row.fetchAll(database.cachedStatement(sql: Self.refundsSQL), arguments: [billId]).map(Self.refund)
        }
    }

    /// The refunds of bill `?`, oldest first, then in the order they were recorded (rowid).
    static let refundsSQL = """
        SELECT r.id, r.bill_id, r.payment_id, p.method, r.amount_minor, r.reason, r.device_id, r.created_at
        FROM refunds r JOIN payments p ON p.id = r.payment_id
        WHERE r.bill_id = ?
        ORDER BY r.created_at, r.rowid
        """

    private static func refund(_ row: Row) throws -> Refund {
        let id: String = row[0]
        let methodText: String = row[3], createdAtText: String = row[7]
        let method = try PaymentMethod(stored: methodText, paymentId: row[2])
        guard let createdAt = Timestamp.parse(createdAtText) else {
            throw StorageError.invalidRow(table: "refunds", id: id, reason: "created_at '\(createdAtText)'")
        }
        return Refund(
            id: id, billId: row[1], paymentId: row[2], method: method, amountMinor: row[4], reason: row[5], deviceId: row[6],
            createdAt: createdAt)
    }
}
