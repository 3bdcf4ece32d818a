import Foundation
import RoutemapDomain

/// The transaction of ``FailingPaymentStore``: everything passes through except payments.
struct FailingPaymentTransaction: POSTransaction {
    let base: any POSTransaction
    let failure: FailingPaymentStore.Failure

    func menuItem(id: String) throws -> MenuItem? { try base.menuItem(id: id) }
    func bill(id: String) throws -> Bill? { try base.bill(id: id) }
    func currentBill(deviceId: String) throws -> Bill? { try base.currentBill(deviceId: deviceId) }
    func insert(_ bill: Bill) throws { try base.insert(bill) }
    func update(_ bill: Bill) throws { try base.update(bill) }
    func insert(_ device: Device, tokenDigest: [UInt8]) throws { try base.insert(device, tokenDigest: tokenDigest) }
    func recordedAnswer(deviceId: String, key: String) throws -> RecordedAnswer? {
        try base.recordedAnswer(deviceId: deviceId, key: key)
    }
    func record(_ answer: RecordedAnswer) throws { try base.record(answer) }
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

    func insert(_ payment: Payment) throws {
        try base.insert(payment)
        switch failure {
        case .afterInsert:
            throw FailingPaymentStore.InjectedFailure()
        case .duplicateInsert:
            try base.insert(payment)
        }
    }
}
