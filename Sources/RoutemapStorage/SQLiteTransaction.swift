import Foundation
import GRDB
import RoutemapDomain

/// The store's queries on one GRDB connection: a ``POSTransaction`` inside
/// ``SQLiteStore/write(_:)``, and the store's reads inside a read transaction.
///
/// Valid only while the GRDB closure that provided `database` runs.
struct SQLiteTransaction: POSTransaction {
    let database: Database

    func menuItem(id: String) throws -> MenuItem? {
        try StorageError.wrapping("reading menu item \(id)") {
            try MenuItemRow.fetchOne(database, key: id)?.menuItem()
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
            guard let row = try BillRow.fetchOne(database, key: id) else { return nil }
            return try bill(row)
        }
    }

    func newestUnpaidBill(deviceId: String) throws -> Bill? {
        try StorageError.wrapping("reading the newest unpaid bill") {
            try BillRow.fetchOne(database, sql: Self.newestUnpaidBillSQL, arguments: [deviceId]).map { try bill($0) }
        }
    }

    func device(tokenDigest: [UInt8]) throws -> Device? {
        try StorageError.wrapping("looking up a device token") {
            try DeviceRow.filter(DeviceRow.Columns.tokenDigest == Data(tokenDigest)).fetchOne(database)?.device()
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
                database, key: [RecordedResponseRow.Columns.deviceId.name: deviceId, RecordedResponseRow.Columns.key.name: key]
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
            try RecordedResponseRow.filter(RecordedResponseRow.Columns.createdAt < Timestamp.format(date)).deleteAll(database)
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
            try database.execute(
                sql: """
                    UPDATE bills
                    SET status = ?, subtotal_minor = ?, tax_minor = ?, total_minor = ?, version = ?, updated_at = ?
                    WHERE id = ? AND version < ?
                    """,
                arguments: [
                    row.status, row.subtotalMinor, row.taxMinor, row.totalMinor, row.version, row.updatedAt,
                    row.id, row.version,
                ])
            guard database.changesCount == 1 else { throw StorageError.staleBill(id: bill.id, version: bill.version) }
            // At most 100 small rows: rewriting them all is simpler than diffing and as fast.
            try BillLineRow.filter(BillLineRow.Columns.billId == bill.id).deleteAll(database)
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
        let lines = try BillLineRow
            .filter(BillLineRow.Columns.billId == row.id)
            .order(BillLineRow.Columns.position)
            .fetchAll(database)
        return try row.bill(lines: lines)
    }

    private func insertLines(of bill: Bill) throws {
        for (position, line) in bill.lines.enumerated() {
            try BillLineRow(line, billId: bill.id, position: position).insert(database)
        }
    }
}
