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
