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

    func newestUnpaidBill() throws -> Bill? { state.newestUnpaidBill }

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
}
