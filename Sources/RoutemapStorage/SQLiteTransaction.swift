import Foundation
import GRDB
import RoutemapDomain

/// The store's queries on one GRDB connection: a ``POSTransaction`` inside
/// ``SQLiteStore/write(_:)``, and the store's reads inside a read transaction.
///
/// Valid only while the GRDB closure that provided `database` runs. Hot queries use GRDB's
/// per-connection statement cache: compiling SQL (and GRDB's authorizer pass over it) cost more
/// than running it (BENCHMARKS.md).
struct SQLiteTransaction: POSTransaction {
    let database: Database

    func menuItem(id: String) throws -> MenuItem? {
        try StorageError.wrapping("reading menu item \(id)") {
            try MenuItemRow.fetchOne(database.cachedStatement(sql: "SELECT * FROM menu_items WHERE id = ?"), arguments: [id])?.menuItem()
        }
    }

    /// Every menu item, in menu order.
    func menuItems() throws -> [MenuItem] {
        try StorageError.wrapping("reading the menu") {
            try MenuItemRow.order(MenuItemRow.Columns.position, MenuItemRow.Columns.id).fetchAll(database).map { try $0.menuItem() }
        }
    }

    func bill(id: String) throws -> Bill? {
        try StorageError.wrapping("reading bill \(id)") {
            guard let row = try BillRow.fetchOne(database.cachedStatement(sql: "SELECT * FROM bills WHERE id = ?"), arguments: [id]) else {
                return nil
            }
            return try bill(row)
        }
    }

    func newestUnpaidBill(deviceId: String) throws -> Bill? {
        try StorageError.wrapping("reading the newest unpaid bill") {
            try BillRow.fetchOne(database.cachedStatement(sql: Self.newestUnpaidBillSQL), arguments: [deviceId]).map { try bill($0) }
        }
    }

    func device(tokenDigest: [UInt8]) throws -> Device? {
        try StorageError.wrapping("looking up a device token") {
            try DeviceRow.fetchOne(
                database.cachedStatement(sql: "SELECT * FROM devices WHERE token_digest = ?"), arguments: [Data(tokenDigest)]
            )?.device()
        }
    }

    func insert(_ device: Device, tokenDigest: [UInt8]) throws {
        try StorageError.wrapping("enrolling device \(device.id)") {
            try DeviceRow(device, tokenDigest: tokenDigest).insert(database)
        }
    }

    func recordedResponse(deviceId: String, key: String) throws -> RecordedResponse? {
        try StorageError.wrapping("reading an idempotency key") {
            try RecordedResponseRow.fetchOne(
                database.cachedStatement(sql: "SELECT * FROM idempotency_keys WHERE device_id = ? AND key = ?"), arguments: [deviceId, key]
            )?.response()
        }
    }

    func record(_ response: RecordedResponse) throws {
        try StorageError.wrapping("recording the answer to an idempotency key") {
            try RecordedResponseRow(response).upsert(database)
        }
    }

    func deleteRecordedResponses(before date: Date) throws {
        try StorageError.wrapping("deleting expired idempotency keys") {
            try database.cachedStatement(sql: "DELETE FROM idempotency_keys WHERE created_at < ?").execute(arguments: [Timestamp.format(date)])
        }
    }

    func insert(_ bill: Bill) throws {
        try StorageError.wrapping("inserting bill \(bill.id)") {
            try BillRow(bill, updatedAt: Date()).insert(database)
            try insertLines(of: bill)
        }
    }

    func update(_ bill: Bill) throws {
        try StorageError.wrapping("updating bill \(bill.id)") {
            let row = BillRow(bill, updatedAt: Date())
            // Only over an older version: a stale copy of the bill must not overwrite a newer one.
            try database.cachedStatement(
                sql: """
                    UPDATE bills
                    SET status = ?, subtotal_minor = ?, tax_minor = ?, total_minor = ?, version = ?, updated_at = ?
                    WHERE id = ? AND version < ?
                    """
            ).execute(arguments: [
                row.status, row.subtotalMinor, row.taxMinor, row.totalMinor, row.version, row.updatedAt, row.id, row.version,
            ])
            guard database.changesCount == 1 else { throw StorageError.staleBill(id: bill.id, version: bill.version) }
            // At most 100 small rows: rewriting them all is simpler than diffing and as fast.
            try database.cachedStatement(sql: "DELETE FROM bill_lines WHERE bill_id = ?").execute(arguments: [bill.id])
            try insertLines(of: bill)
        }
    }

    func insert(_ payment: Payment) throws {
        try StorageError.wrapping("recording payment \(payment.id) of bill \(payment.billId)") {
            try PaymentRow(payment).insert(database)
        }
    }

    /// The payment of bill `billId`, if it is paid.
    func payment(billId: String) throws -> Payment? {
        try StorageError.wrapping("reading the payment of bill \(billId)") {
            try PaymentRow.filter(PaymentRow.Columns.billId == billId).fetchOne(database)?.payment()
        }
    }

    /// The WHERE clause repeats the partial index's, so SQLite reads
    /// `bills_unpaid_newest_by_device` instead of scanning every bill. rowid breaks ties
    /// between bills created in the same millisecond: the later insert wins.
    static let newestUnpaidBillSQL = """
        SELECT * FROM bills
        WHERE device_id = ? AND status IN ('open', 'checked_out')
        ORDER BY created_at DESC, rowid DESC
        LIMIT 1
        """

    // MARK: Helpers

    private func bill(_ row: BillRow) throws -> Bill {
        let lines = try BillLineRow.fetchAll(
            database.cachedStatement(sql: "SELECT * FROM bill_lines WHERE bill_id = ? ORDER BY position"), arguments: [row.id])
        return try row.bill(lines: lines)
    }

    private func insertLines(of bill: Bill) throws {
        for (position, line) in bill.lines.enumerated() {
            try BillLineRow(line, billId: bill.id, position: position).insert(database)
        }
    }
}
