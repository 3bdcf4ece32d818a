import Foundation
import RoutemapDomain
@testable import RoutemapStorage
import Synchronization

/// Wraps a ``SQLiteStore`` and notes, at every write a transaction makes, the connection's
/// `PRAGMA synchronous` as it is inside that transaction: to prove which use cases commit with
/// FULL durability.
final class SynchronousProbeStore: ForwardingStore {
    /// What was written ("bill", "update", "payment", "device", "record") and the synchronous
    /// setting it was written under, in order.
    let writes = Mutex<[(String, Int)]>([])
    let base: SQLiteStore

    init(base: SQLiteStore) {
        self.base = base
    }

    var log: [String] { writes.withLock { $0.map { "\($0.0) \($0.1)" } } }

    var forwarded: any POSStore { base }

    func write<T: Sendable>(durability: Durability, _ body: @escaping @Sendable (any POSTransaction) throws -> T) async throws -> T {
        try await base.write(durability: durability) { transaction in
            try body(Transaction(base: transaction as! SQLiteTransaction, store: self))
        }
    }

    private struct Transaction: ForwardingTransaction {
        let base: SQLiteTransaction
        let store: SynchronousProbeStore

        private func note(_ what: String) throws {
            let synchronous = try base.synchronous()
            store.writes.withLock { $0.append((what, synchronous)) }
        }

        var forwarded: any POSTransaction { base }

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
