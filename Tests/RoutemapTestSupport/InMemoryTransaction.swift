import Foundation
import RoutemapDomain

/// The transaction of ``InMemoryStore``: changes a private copy of the state, refusing what
/// the database's constraints refuse (a second bill or payment with one id, a stale update,
/// a device or token digest enrolled twice) with ``Conflict``.
final class InMemoryTransaction: POSTransaction {
    /// What the database would refuse as a constraint violation.
    struct Conflict: Error {}

    var state: InMemoryStore.State

    init(state: InMemoryStore.State) {
        self.state = state
    }

    func menuItem(id: String) throws -> MenuItem? { state.menu.first { $0.id == id } }

    func bill(id: String) throws -> Bill? { state.bills[id] }

    func currentBill(deviceId: String) throws -> Bill? { state.currentBill(deviceId: deviceId) }

    func insert(_ bill: Bill) throws {
        guard state.bills[bill.id] == nil else { throw Conflict() }
        state.bills[bill.id] = bill
        state.billOrder.append(bill.id)
    }

    func update(_ bill: Bill) throws {
        guard let stored = state.bills[bill.id], stored.version < bill.version else { throw Conflict() }
        state.bills[bill.id] = bill
    }

    func insert(_ payment: Payment) throws {
        guard !state.payments.contains(where: { $0.billId == payment.billId }) else { throw Conflict() }
        state.payments.append(payment)
    }

    func insert(_ device: Device, tokenDigest: [UInt8]) throws {
        guard !state.devices.contains(where: { $0.device.id == device.id || $0.tokenDigest == tokenDigest }) else {
            throw Conflict()
        }
        state.devices.append((device, tokenDigest))
    }

    func recordedAnswer(deviceId: String, key: String) throws -> RecordedAnswer? {
        state.recordedAnswers[InMemoryStore.RecordedKey(deviceId: deviceId, key: key)]
    }

    func record(_ answer: RecordedAnswer) throws {
        state.recordedAnswers[InMemoryStore.RecordedKey(deviceId: answer.deviceId, key: answer.key)] = answer
    }

    func deleteRecordedAnswers(before date: Date) throws {
        state.recordedAnswers = state.recordedAnswers.filter { $0.value.createdAt >= date }
    }
}
