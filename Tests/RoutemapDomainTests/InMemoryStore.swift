import Foundation
import RoutemapDomain
import Synchronization

/// A ``POSStore`` in memory, for the use-case tests: a write works on a copy of the state and
/// commits it only if the body returns, like a database transaction.
final class InMemoryStore: POSStore {
    struct State {
        var menu: [MenuItem] = []
        var bills: [String: Bill] = [:]
        /// Bill ids in creation order.
        var billOrder: [String] = []
        var payments: [Payment] = []
        /// Enrolled devices with the digests of their tokens.
        var devices: [(device: Device, tokenDigest: [UInt8])] = []
        /// Recorded answers to idempotency keys, by device id and key.
        var recordedResponses: [RecordedKey: RecordedResponse] = [:]
        /// The durability of every committed write, in commit order.
        var committedDurabilities: [Durability] = []

        func newestUnpaidBill(deviceId: String) -> Bill? {
            billOrder.reversed().lazy.compactMap { bills[$0] }.first { $0.status != .paid && $0.deviceId == deviceId }
        }
    }

    struct RecordedKey: Hashable {
        let deviceId: String
        let key: String
    }

    private let state: Mutex<State>

    init(menu: [MenuItem]) {
        state = Mutex(State(menu: menu))
    }

    var snapshot: State { state.withLock { $0 } }

    func menuItems() throws -> [MenuItem] { snapshot.menu }

    func bill(id: String) throws -> Bill? { snapshot.bills[id] }

    func newestUnpaidBill(deviceId: String) throws -> Bill? { snapshot.newestUnpaidBill(deviceId: deviceId) }

    func device(tokenDigest: [UInt8]) throws -> Device? {
        snapshot.devices.first { $0.tokenDigest == tokenDigest }?.device
    }

    func write<T>(durability: Durability, _ body: (any POSTransaction) throws -> T) throws -> T {
        try state.withLock { state in
            let transaction = InMemoryTransaction(state: state)
            let result = try body(transaction)
            state = transaction.state
            state.committedDurabilities.append(durability)
            return result
        }
    }

    func ping() throws {}
}
