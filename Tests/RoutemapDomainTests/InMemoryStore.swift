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

        var newestUnpaidBill: Bill? {
            billOrder.reversed().lazy.compactMap { bills[$0] }.first { $0.status != .paid }
        }
    }

    private let state: Mutex<State>

    init(menu: [MenuItem]) {
        state = Mutex(State(menu: menu))
    }

    var snapshot: State { state.withLock { $0 } }

    func menuItems() throws -> [MenuItem] { snapshot.menu }

    func bill(id: String) throws -> Bill? { snapshot.bills[id] }

    func newestUnpaidBill() throws -> Bill? { snapshot.newestUnpaidBill }

    func write<T>(_ body: (any POSTransaction) throws -> T) throws -> T {
        try state.withLock { state in
            let transaction = InMemoryTransaction(state: state)
            let result = try body(transaction)
            state = transaction.state
            return result
        }
    }

    func ping() throws {}
}
