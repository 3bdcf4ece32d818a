import Foundation
import RoutemapDomain
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// The in-memory bills never disagree with the file: what a store serves from memory is what a
/// fresh store (no cache) reads from SQL.
@Suite("Bill cache", .enabled(if: !TestDatabase.onPostgres, "about SQLite itself"))
struct BillCacheTests {
    /// A store on the same file with nothing cached.
    private func fresh(_ database: TestDatabase) throws -> SQLiteStore {
        try SQLiteStore(path: database.path, migrations: try StorageFixtures.migrations())
    }

    @Test("every kind of line edit is written to the file as the cached bill shows it")
    func lineEdits() async throws {
        let database = try await TestDatabase()
        let device = database.device
        let till = database.till()
        let bill = try await till.openBill(device: device)
        var latest = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        latest = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 2)
        latest = try await till.addItem(billId: bill.id, device: device, menuItemId: "bagel", quantity: 1)
        let croissant = latest.lines[1].lineId
        latest = try await till.setQuantity(billId: bill.id, device: device, lineId: croissant, quantity: 5)
        latest = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 2)
        #expect(try fresh(database).bill(id: bill.id) == latest)

        // A removal in the middle, then an addition at the end.
        latest = try await till.removeLine(billId: bill.id, device: device, lineId: croissant)
        latest = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 1)
        #expect(latest.lines.map(\.menuItemId) == ["latte", "bagel", "croissant"])
        #expect(try till.bill(id: bill.id, device: device) == latest)
        #expect(try fresh(database).bill(id: bill.id) == latest)
    }

    @Test("the current bill follows opening, paying and the next bill, as SQL finds it")
    func currentBill() async throws {
        let database = try await TestDatabase()
        let device = database.device
        let till = database.till()
        let first = try await till.currentBill(device: device)
        #expect(try database.store.currentBill(deviceId: device) == first)
        let second = try await till.openBill(device: device)
        #expect(try database.store.currentBill(deviceId: device) == second)
        #expect(try fresh(database).currentBill(deviceId: device) == second)

        _ = try await till.addItem(billId: second.id, device: device, menuItemId: "latte", quantity: 1)
        let checkedOut = try await till.checkout(billId: second.id, device: device)
        let outcome = try await till.pay(billId: second.id, device: device, PaymentRequest(method: .card, amountMinor: checkedOut.totalMinor))
        #expect(try database.store.currentBill(deviceId: device) == outcome.nextBill)
        #expect(try fresh(database).currentBill(deviceId: device) == outcome.nextBill)
        #expect(try database.store.bill(id: second.id)?.status == .paid)
    }

    @Test("a bill opened with an earlier clock does not become the current bill, as in SQL")
    func clockGoesBack() async throws {
        let database = try await TestDatabase()
        let device = database.device
        let clock = TestClock()
        let till = database.till(now: clock.function)
        let newer = try await till.currentBill(device: device)
        clock.advance(by: -60)
        let older = try await till.openBill(device: device)
        #expect(older.createdAt < newer.createdAt)
        #expect(try database.store.currentBill(deviceId: device) == newer)
        #expect(try fresh(database).currentBill(deviceId: device) == newer)
    }

    @Test("a write that throws leaves nothing of itself in memory")
    func rollback() async throws {
        let database = try await TestDatabase()
        let device = database.device
        let till = database.till()
        let bill = try await till.addItem(billId: try await till.openBill(device: device).id, device: device, menuItemId: "latte", quantity: 1)
        struct Abort: Error {}
        await #expect(throws: Abort.self) {
            try await database.store.write { transaction in
                var changed = try #require(try transaction.bill(id: bill.id))
                try changed.checkout()
                try transaction.update(changed)
                try transaction.insert(try Bill(id: "bill_rolledback", currency: .usd, taxRate: StorageFixtures.rate875, createdAt: Date(), deviceId: device))
                throw Abort()
            }
        }
        #expect(try database.store.bill(id: bill.id) == bill)
        #expect(try database.store.bill(id: "bill_rolledback") == nil)
        #expect(try database.store.currentBill(deviceId: device) == bill)
    }

    @Test("a write by another store on the file is seen by this store's next write")
    func otherWriter() async throws {
        let database = try await TestDatabase()
        let device = database.device
        let till = database.till()
        let bill = try await till.addItem(billId: try await till.openBill(device: device).id, device: device, menuItemId: "latte", quantity: 1)
        let other = Till(store: try fresh(database), taxRate: StorageFixtures.rate875, currency: .usd)
        let theirs = try await other.addItem(billId: bill.id, device: device, menuItemId: "bagel", quantity: 1)
        // This store's cache still holds version 2; its next write must start from version 3.
        let ours = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 1)
        #expect(ours.version == theirs.version + 1)
        #expect(ours.lines.map(\.menuItemId) == ["latte", "bagel", "croissant"])
        #expect(try fresh(database).bill(id: bill.id) == ours)
    }

    @Test("beyond its capacity the cache forgets the bills it cached first, and reads still find them")
    func capacity() throws {
        let cache = BillCache(capacity: 2)
        let bills = try (0..<3).map {
            try Bill(id: "bill_\($0)", currency: .usd, taxRate: StorageFixtures.rate875, createdAt: Date(), deviceId: "dev")
        }
        for bill in bills { cache.remember(.bill(bill), readAt: cache.generation) }
        #expect(cache.bill(id: "bill_0") == nil)
        #expect(cache.bill(id: "bill_1") == bills[1] && cache.bill(id: "bill_2") == bills[2])

        // An offer read before a commit (or a reset) is refused: it may be stale.
        cache.removeAll()
        var generation = cache.generation
        cache.apply(BillChanges())
        cache.remember(.bill(bills[0]), readAt: generation)
        #expect(cache.bill(id: "bill_0") == nil)
        generation = cache.generation
        cache.removeAll()
        cache.remember(.current(deviceId: "dev", bills[1]), readAt: generation)
        #expect(cache.currentBill(deviceId: "dev") == nil)
        cache.remember(.current(deviceId: "dev", bills[1]), readAt: cache.generation)
        #expect(cache.currentBill(deviceId: "dev") == .some(bills[1]))
    }

    @Test("a device's current bill that the cache holds as another device's now (transferred) is unknown: the database is asked")
    func transferredCurrentBill() throws {
        let cache = BillCache(capacity: 8)
        let bill = try Bill(id: "bill_0", currency: .usd, taxRate: StorageFixtures.rate875, createdAt: Date(), deviceId: "dev_old")
        cache.remember(.current(deviceId: "dev_old", bill), readAt: cache.generation)
        #expect(cache.currentBill(deviceId: "dev_old") == .some(bill))
        var moved = bill
        try moved.transfer(to: "dev_new")
        // Only the bill is offered again (the write that knew of the transfer forgets the device's current bill itself).
        cache.remember(.bill(moved), readAt: cache.generation)
        #expect(cache.currentBill(deviceId: "dev_old") == nil)
    }
}
