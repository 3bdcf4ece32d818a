import Foundation
import RoutemapDomain
import RoutemapTestSupport
@testable import RoutemapStorage
import Testing

@Suite("Durability: FULL for the transaction that asks for it, NORMAL otherwise", .enabled(if: !TestDatabase.onPostgres, "about SQLite itself"))
struct DurabilityStorageTests {
    @Test("a full write runs with synchronous = FULL inside; the writer is back to NORMAL afterwards")
    func fullWrite() async throws {
        let database = try await TestDatabase()
        let store = database.sqlite
        #expect(try store.writerSettings().synchronous == 1)
        let inside = try await store.write(durability: .full) { try ($0 as! SQLiteTransaction).synchronous() }
        #expect(inside == 2)
        #expect(try store.writerSettings().synchronous == 1)
        #expect(try await store.write(durability: .normal) { try ($0 as! SQLiteTransaction).synchronous() } == 1)
        #expect(try await store.write { try ($0 as! SQLiteTransaction).synchronous() } == 1)
        // Readers are never switched.
        #expect(try store.readerSettings().synchronous == 1)
    }

    @Test("a full write that throws is rolled back, and the writer is back to NORMAL")
    func fullWriteThrows() async throws {
        let database = try await TestDatabase()
        let store = database.sqlite
        let bill = try Bill(id: "bill_full", currency: .usd, taxRate: StorageFixtures.rate875, createdAt: Date())
        await #expect(throws: POSError.billEmpty) {
            try await store.write(durability: .full) { transaction in
                try transaction.insert(bill)
                throw POSError.billEmpty
            }
        }
        #expect(try store.bill(id: bill.id) == nil)
        #expect(try store.writerSettings().synchronous == 1)
        #expect(try await store.write { try ($0 as! SQLiteTransaction).synchronous() } == 1)
    }

    @Test("payments (with their next bill and recorded answer) and enrollments are written under FULL; edits under NORMAL")
    func useCases() async throws {
        let database = try await TestDatabase()
        let probe = SynchronousProbeStore(base: database.sqlite)
        let till = Till(store: probe, taxRate: StorageFixtures.rate875, currency: .usd)
        let device = database.device
        let bill = try await till.openBill(device: device)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        _ = try await till.checkout(billId: bill.id, device: device, idempotency: Keys.bill("checkout", fingerprint: "checkout"))
        #expect(probe.log == ["bill 1", "update 1", "update 1", "record 1"])

        probe.writes.withLock { $0.removeAll() }
        let outcome = try #require(
            try await till.pay(
                billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: 517),
                idempotency: Keys.payment("pay", fingerprint: "pay")
            ).performedValue)
        // The next bill first; then, once numbered, the paid bill holding its payment, and the
        // payment last but the record.
        #expect(probe.log == ["bill 2", "update 2", "payment 2", "record 2"])

        // The next edit is NORMAL again.
        probe.writes.withLock { $0.removeAll() }
        _ = try await till.addItem(billId: outcome.nextBill.id, device: device, menuItemId: "latte", quantity: 1)
        #expect(probe.log == ["update 1"])

        probe.writes.withLock { $0.removeAll() }
        _ = try await DeviceDirectory(store: probe).enroll(name: "Back counter")
        #expect(probe.log == ["device 2"])
        #expect(try database.sqlite.writerSettings().synchronous == 1)
    }
}
