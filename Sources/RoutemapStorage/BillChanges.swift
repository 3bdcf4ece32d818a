import RoutemapDomain

/// The bills one write transaction has read or written, as that transaction sees them: its
/// reads are served from here first, and once it commits the ``BillCache`` takes them over.
///
/// Confined to the writer: created, used and applied inside one write, on one thread.
final class BillChanges {
    /// What the transaction knows of a device's current bill.
    enum CurrentChange: Equatable {
        case known(BillCache.Current)
        /// A change made it unknowable without a query (the current bill was paid).
        case unknown
    }

    /// Each bill as of this transaction: loaded, inserted or updated.
    private(set) var bills: [String: Bill] = [:]
    /// Devices whose current bill this transaction learnt or changed.
    private(set) var current: [String: CurrentChange] = [:]
    /// The changes of the enclosing batch, seen through when this one does not know a bill.
    private let parent: BillChanges?

    init(parent: BillChanges? = nil) {
        self.parent = parent
    }

    /// The bill with `id` as this transaction sees it, if it has read or written it.
    func bill(id: String) -> Bill? {
        bills[id] ?? parent?.bill(id: id)
    }

    /// What this transaction knows of `deviceId`'s current bill, if anything.
    func currentChange(deviceId: String) -> CurrentChange? {
        current[deviceId] ?? parent?.currentChange(deviceId: deviceId)
    }

    /// Notes a bill as read or written.
    func note(_ bill: Bill) {
        bills[bill.id] = bill
    }

    /// Notes what is now known of a device's current bill.
    func note(current change: CurrentChange, deviceId: String) {
        current[deviceId] = change
    }

    /// Takes over a finished nested transaction's changes (a savepoint that was released).
    func absorb(_ child: BillChanges) {
        bills.merge(child.bills) { _, new in new }
        current.merge(child.current) { _, new in new }
    }
}
