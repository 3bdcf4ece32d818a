import Foundation
import RoutemapDomain
@testable import RoutemapStorage
import Synchronization

/// Wraps a ``SQLiteStore`` and notes, at every write a transaction makes, the connection's
/// `PRAGMA synchronous` as it is inside that transaction: to prove which use cases commit with
/// FULL durability.
final class SynchronousProbeStore: POSStore {
    /// What was written ("bill", "update", "payment", "device", "record") and the synchronous
    /// setting it was written under, in order.
    let writes = Mutex<[(String, Int)]>([])
    let base: SQLiteStore

    init(base: SQLiteStore) {
        self.base = base
    }

    var log: [String] { writes.withLock { $0.map { "\($0.0) \($0.1)" } } }

    func menuItems() throws -> [MenuItem] { try base.menuItems() }
    func bill(id: String) throws -> Bill? { try base.bill(id: id) }
    func currentBill(deviceId: String) throws -> Bill? { try base.currentBill(deviceId: deviceId) }
    func unsettledBills(deviceId: String, statuses: Set<BillStatus>, after cursor: BillCursor?, limit: Int) throws -> [Bill] {
        try base.unsettledBills(deviceId: deviceId, statuses: statuses, after: cursor, limit: limit)
    }
    func payment(id: String) throws -> Payment? { try base.payment(id: id) }
    func payment(billId: String) throws -> Payment? { try base.payment(billId: billId) }
    func device(tokenDigest: [UInt8]) throws -> Device? { try base.device(tokenDigest: tokenDigest) }
    func devices() throws -> [Device] { try base.devices() }
    func menuRevision() throws -> Int { try base.menuRevision() }
    func menuCategories() throws -> [MenuCategory] { try base.menuCategories() }
    func device(nextTokenDigest: [UInt8]) throws -> Device? { try base.device(nextTokenDigest: nextTokenDigest) }
    func ping() throws { try base.ping() }

    func write<T: Sendable>(durability: Durability, _ body: @escaping @Sendable (any POSTransaction) throws -> T) async throws -> T {
        try await base.write(durability: durability) { transaction in
            try body(Transaction(base: transaction as! SQLiteTransaction, store: self))
        }
    }

    private struct Transaction: POSTransaction {
        let base: SQLiteTransaction
        let store: SynchronousProbeStore

        private func note(_ what: String) throws {
            let synchronous = try base.synchronous()
            store.writes.withLock { $0.append((what, synchronous)) }
        }

        func menuItem(id: String) throws -> MenuItem? { try base.menuItem(id: id) }
        func bill(id: String) throws -> Bill? { try base.bill(id: id) }
        func currentBill(deviceId: String) throws -> Bill? { try base.currentBill(deviceId: deviceId) }
        func recordedAnswer(deviceId: String, key: String) throws -> RecordedAnswer? {
            try base.recordedAnswer(deviceId: deviceId, key: key)
        }
        func deleteRecordedAnswers(before date: Date) throws { try base.deleteRecordedAnswers(before: date) }
        func device(id: String) throws -> Device? { try base.device(id: id) }
        func menuItemExists(id: String) throws -> Bool { try base.menuItemExists(id: id) }
        func insertMenuItem(_ item: MenuItem) throws { try base.insertMenuItem(item) }
        func updateMenuItem(_ item: MenuItem) throws { try base.updateMenuItem(item) }
        func retireMenuItem(id: String, at date: Date) throws { try base.retireMenuItem(id: id, at: date) }
        func menuCategory(id: String) throws -> MenuCategory? { try base.menuCategory(id: id) }
        func menuCategoryExists(id: String) throws -> Bool { try base.menuCategoryExists(id: id) }
        func insertMenuCategory(_ category: MenuCategory) throws { try base.insertMenuCategory(category) }
        func updateMenuCategory(_ category: MenuCategory) throws { try base.updateMenuCategory(category) }
        func retireMenuCategory(id: String, at date: Date) throws { try base.retireMenuCategory(id: id, at: date) }
        func menuItemCount(category id: String) throws -> Int { try base.menuItemCount(category: id) }
        func revokeDevice(id: String, at date: Date) throws { try base.revokeDevice(id: id, at: date) }
        func setNextToken(deviceId: String, tokenDigest: [UInt8]) throws { try base.setNextToken(deviceId: deviceId, tokenDigest: tokenDigest) }
        func promoteNextToken(deviceId: String, tokenDigest: [UInt8]) throws {
            try base.promoteNextToken(deviceId: deviceId, tokenDigest: tokenDigest)
        }

        func insert(_ bill: Bill) throws {
            try note("bill")
            try base.insert(bill)
        }

        func update(_ bill: Bill) throws {
            try note("update")
            try base.update(bill)
        }

        func insert(_ payment: Payment) throws {
            try note("payment")
            try base.insert(payment)
        }

        func insert(_ device: Device, tokenDigest: [UInt8]) throws {
            try note("device")
            try base.insert(device, tokenDigest: tokenDigest)
        }

        func record(_ answer: RecordedAnswer) throws {
            try note("record")
            try base.record(answer)
        }
    }
}
