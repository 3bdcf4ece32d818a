import Foundation
import PostgresNIO
import RoutemapDomain
import RoutemapStorage

extension PostgresStore {
    public func refunds(billId: String) throws -> [Refund] {
        try reading("reading the refunds of bill \(billId)") { try $0.refunds(billId: billId) }
    }
}

extension PostgresTransaction {
    func insert(_ refund: Refund) throws {
        session.enqueue(
            """
            INSERT INTO refunds (id, bill_id, payment_id, amount_minor, reason, device_id, created_at)
            VALUES (\(refund.id), \(refund.billId), \(refund.paymentId), \(refund.amountMinor), \(refund.reason), \(refund.deviceId),
                    \(refund.createdAt))
            """)
    }

    /// By `refunds_bill_id` (migration 0018), with each refund's method from its payment. In a
    /// write, a refund reads its bill first (`bill(id:)`, which locks the bill's row), so this
    /// statement sees every refund of the bill committed before, and none commits meanwhile.
    func refunds(billId: String) throws -> [Refund] {
        try session.rows(
            """
            SELECT r.id, r.bill_id, r.payment_id, p.method, r.amount_minor, r.reason, r.device_id, r.created_at
            FROM refunds r JOIN payments p ON p.id = r.payment_id
            WHERE r.bill_id = \(billId)
            ORDER BY r.created_at, r.seq
            """
        ).map { row in
            let (id, bill, payment, methodText, amount, reason, device, createdAt) = try row.decode(
                (String, String, String, String, Int64, String, String, Date).self)
            return Refund(
                id: id, billId: bill, paymentId: payment, method: try PaymentMethod(stored: methodText, paymentId: payment),
                amountMinor: amount, reason: reason, deviceId: device, createdAt: createdAt.roundedToMilliseconds)
        }
    }
}
