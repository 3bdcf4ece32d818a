import RoutemapDomain
import Synchronization

/// The committed state of recently used bills, kept in memory so that the hot reads (a bill by
/// id, a device's current bill) and the load at the start of each write skip SQL.
///
/// It holds only what a committed transaction wrote or read, so it never shows a change that
/// was rolled back. Another process writing the same file empties it at this store's next write
/// (the writer compares `PRAGMA data_version`), so writes always start from the committed state;
/// reads outside a write may show a bill as it was before such a write (see ``SQLiteStore``).
///
/// Readers that miss go to the database and may offer what they read back with
/// ``remember(_:readAt:)``; a `generation` taken before the read rejects an offer that a commit
/// may have made stale in the meantime.
final class BillCache: Sendable {
    /// What is known of a device's current bill (its unsettled bill selected last).
    enum Current: Sendable, Equatable {
        /// The bill with this id.
        case bill(String)
        /// The device has no unsettled bill.
        case none
    }

    /// One thing a reader learnt from the database.
    enum Reading: Sendable {
        case bill(Bill)
        case current(deviceId: String, Bill?)
    }

    private struct State {
        var bills: BoundedDictionary<String, Bill>
        var current: BoundedDictionary<String, Current>
        /// Counts commits, so a reader can tell whether one happened during its read.
        var generation: UInt64 = 0
    }

    private let state: Mutex<State>

    /// At most `capacity` bills and as many devices' current bills are kept; beyond, the ones
    /// first cached make room (a miss only costs a query).
    init(capacity: Int = 4096) {
        state = Mutex(State(bills: BoundedDictionary(capacity: capacity), current: BoundedDictionary(capacity: capacity)))
    }

    /// The committed bill with `id`, if cached.
    func bill(id: String) -> Bill? {
        state.withLock { $0.bills[id] }
    }

    /// The current bill of `deviceId`: `nil` if not cached, `.some(nil)` if it has none.
    func currentBill(deviceId: String) -> Bill?? {
        state.withLock { state in
            switch state.current[deviceId] {
            case nil: return nil
            case .none?: return .some(nil)
            case .bill(let id)?:
                // A bill transferred since is another device's: unknown here, ask the database.
                guard let bill = state.bills[id], bill.deviceId == deviceId else { return nil }
                return .some(bill)
            }
        }
    }

    /// The generation to pass to ``remember(_:readAt:)``: take it before reading.
    var generation: UInt64 {
        state.withLock { $0.generation }
    }

    /// Keeps what a reader read, unless a commit happened since it took `generation`.
    func remember(_ reading: Reading, readAt generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation else { return }
            switch reading {
            case .bill(let bill):
                state.bills[bill.id] = bill
            case .current(let deviceId, let bill):
                if let bill { state.bills[bill.id] = bill }
                state.current[deviceId] = bill.map { .bill($0.id) } ?? Current.none
            }
        }
    }

    /// Applies what a transaction committed (call it after the commit, before the next write).
    func apply(_ changes: BillChanges) {
        state.withLock { state in
            state.generation &+= 1
            for bill in changes.bills.values {
                if !bill.status.isUnsettled {
                    // Rarely read again: keep the room for bills in use.
                    state.bills[bill.id] = nil
                } else {
                    state.bills[bill.id] = bill
                }
            }
            for (deviceId, change) in changes.current {
                switch change {
                case .known(let current): state.current[deviceId] = current
                case .unknown: state.current[deviceId] = nil
                }
            }
        }
    }

    /// Forgets everything: after a write this cache did not see.
    func removeAll() {
        state.withLock { state in
            state.generation &+= 1
            state.bills.removeAll()
            state.current.removeAll()
        }
    }
}
