import Foundation
import RoutemapDomain

/// The transaction of ``InMemoryStore``: changes a private copy of the state.
final class InMemoryTransaction: POSTransaction {
    struct Conflict: Error {}

    var state: InMemoryStore.State

    init(state: InMemoryStore.State) {
        self.state = state
    }

    func menuItem(id: String) throws -> MenuItem? { state.menu.first { $0.id == id } }

    func bill(id: String) throws -> Bill? { state.bills[id] }

    func newestUnpaidBill(deviceId: String) throws -> Bill? { state.newestUnpaidBill(deviceId: deviceId) }

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

    func recordedResponse(deviceId: String, key: String) throws -> RecordedResponse? {
        state.recordedResponses[InMemoryStore.RecordedKey(deviceId: deviceId, key: key)]
    }

    func record(_ response: RecordedResponse) throws {
        state.recordedResponses[InMemoryStore.RecordedKey(deviceId: response.deviceId, key: response.key)] = response
    }

    func deleteRecordedResponses(before date: Date) throws {
        state.recordedResponses = state.recordedResponses.filter { $0.value.createdAt >= date }
    }
}
