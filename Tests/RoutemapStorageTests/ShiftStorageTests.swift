import Foundation
import RoutemapDomain
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// Cash drawer shifts on a real database (SQLite, or PostgreSQL when
/// `ROUTEMAP_TEST_DATABASE_URL` is set): payments record their device, a shift's sums follow
/// the domain's rule in SQL, its close is kept, and a device never has two open shifts.
@Suite("Cash drawer shifts on a real database")
struct ShiftStorageTests {
    /// A checked-out bill of `device` holding two lattes (1033), paid by `method` with `tip`.
    private func paid(_ till: Till, _ device: String, _ method: PaymentMethod, tip: Int64 = 0, tendered: Int64? = nil) async throws -> Payment {
        let bill = try await ReceiptStorageTests().checkedOut(till, device)
        return try await till.pay(
            billId: bill.id, device: device, PaymentRequest(method: method, amountMinor: bill.totalMinor, tenderedMinor: tendered, tipMinor: tip)
        ).payment
    }

    @Test("a shift's sums in SQL are the domain's rule over the same records; the close is kept, by this store and a new one")
    func wholeShift() async throws {
        let database = try await TestDatabase()
        let clock = TestClock()
        let till = database.till(now: clock.function)
        let device = database.device, other = try await database.enrollDevice()
        // The device refunds as a manager would (the store keeps whichever device made it).
        let manager = BillCaller(deviceId: device, role: .manager)
        let early = try await paid(till, device, .cash)
        clock.advance(by: 1)
        let opened = try await till.openShift(device: device, openingFloatMinor: 5000, idempotency: nil).performedWithoutKey()
        clock.advance(by: 1)
        let cash = try await paid(till, device, .cash, tip: 100, tendered: 2000)
        let card = try await paid(till, device, .card, tip: 150)
        let elsewhere = try await paid(till, other, .cash)
        let cashRefund = try await till.refund(billId: cash.billId, amountMinor: 33, reason: "Cold", caller: manager, idempotency: nil)
            .performedWithoutKey().refund
        let cardRefund = try await till.refund(billId: card.billId, amountMinor: 10, reason: "Cold", caller: manager, idempotency: nil)
            .performedWithoutKey().refund
        let payIn = try await till.recordDrawerMovement(kind: .payIn, amountMinor: 700, reason: "Change", device: device, idempotency: nil)
            .performedWithoutKey().movement
        let payOut = try await till.recordDrawerMovement(kind: .payOut, amountMinor: 200, reason: "Milk", device: device, idempotency: nil)
            .performedWithoutKey().movement
        #expect(cash.deviceId == device && elsewhere.deviceId == other)
        #expect(try database.store.payment(id: cash.id) == cash, "a payment's device is stored")

        let rule = try DrawerFigures(
            of: opened.shift, payments: [early, cash, card, elsewhere], refunds: [cashRefund, cardRefund], movements: [payIn, payOut])
        #expect(rule.cashTaken == SalesReport.MethodTotals(count: 1, amountMinor: 1133))
        #expect(rule.cardTaken == SalesReport.MethodTotals(count: 1, amountMinor: 1183))
        #expect(rule.cashRefunded == SalesReport.MethodTotals(count: 1, amountMinor: 33))
        #expect(try database.store.drawerFigures(of: opened.shift) == rule)
        let current = try till.currentShift(device: device)
        #expect(current.expectedCashMinor == 5000 + 1133 - 33 + 700 - 200)

        clock.advance(by: 60)
        let closed = try await till.closeShift(device: device, countedCashMinor: 6650, idempotency: nil).performedWithoutKey()
        #expect(closed.varianceMinor == 50 && closed.expectedCashMinor == 6600)
        clock.advance(by: 1)
        _ = try await paid(till, device, .cash)
        for store in [database.store, try database.reopen()] {
            let reader = Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd)
            #expect(try reader.shiftReport(id: opened.shift.id, caller: manager) == closed)
            #expect(try store.openShift(deviceId: device) == nil)
        }
        #expect(try database.store.rowCount(in: "drawer_shifts") == 1 && database.store.rowCount(in: "drawer_movements") == 2)
    }

    @Test("the store refuses a second open shift of one device (the partial unique index); a closed one does not count")
    func oneOpenShift() async throws {
        let database = try await TestDatabase()
        let at = Date().roundedToMilliseconds
        let first = DrawerShift(id: "shift_1", deviceId: database.device, openedAt: at, openingFloatMinor: 0)
        let second = DrawerShift(id: "shift_2", deviceId: database.device, openedAt: at, openingFloatMinor: 0)
        try await database.store.write { try $0.insert(first) }
        await #expect(throws: (any Error).self) { try await database.store.write { try $0.insert(second) } }
        let closed = first.closed(at: at, countedCashMinor: 0, expectedCashMinor: 0)
        try await database.store.write { try $0.close(closed) }
        await #expect(throws: (any Error).self, "a shift is closed once") { try await database.store.write { try $0.close(closed) } }
        try await database.store.write { try $0.insert(second) }
        #expect(try database.store.openShift(deviceId: database.device)?.id == "shift_2")
        #expect(try database.store.shift(id: "shift_1") == closed)
    }

    @Test("listing: newest first, shifts opened in the same millisecond by id (byte order), a page after a cursor, one device's")
    func listing() async throws {
        let database = try await TestDatabase()
        let other = try await database.enrollDevice()
        let at = Date().roundedToMilliseconds
        // Closed shifts of one device opened in one millisecond, and another device's later one.
        let device = database.device
        for id in ["shift_B", "shift_a", "shift_C"] {
            let shift = DrawerShift(id: id, deviceId: device, openedAt: at, openingFloatMinor: 0)
            try await database.store.write { transaction in
                try transaction.insert(shift)
                try transaction.close(shift.closed(at: at, countedCashMinor: 0, expectedCashMinor: 0))
            }
        }
        let later = DrawerShift(id: "shift_0", deviceId: other, openedAt: at.addingTimeInterval(1), openingFloatMinor: 0)
        try await database.store.write { try $0.insert(later) }
        #expect(try database.store.shifts(deviceId: nil, after: nil, limit: 10).map(\.id) == ["shift_0", "shift_a", "shift_C", "shift_B"])
        let first = try #require(try database.store.shift(id: "shift_a"))
        #expect(try database.store.shifts(deviceId: nil, after: ShiftCursor(after: first), limit: 1).map(\.id) == ["shift_C"])
        #expect(try database.store.shifts(deviceId: database.device, after: nil, limit: 10).map(\.id) == ["shift_a", "shift_C", "shift_B"])
        #expect(try database.store.shifts(deviceId: other, after: ShiftCursor(after: later), limit: 10).isEmpty)
    }

    @Test("the tables refuse a negative float, a movement of nothing, a reason over 200 characters and a shift that does not exist")
    func constraints() async throws {
        let database = try await TestDatabase()
        let negative = DrawerShift(
            id: "shift_neg", deviceId: database.device, openedAt: Date().roundedToMilliseconds, openingFloatMinor: -1)
        await #expect(throws: (any Error).self) { try await database.store.write { try $0.insert(negative) } }
        let shift = try await database.till().openShift(device: database.device, openingFloatMinor: 0, idempotency: nil).performedWithoutKey().shift
        func attempt(amount: Int64 = 1, reason: String = "ok", shiftId: String? = nil) async throws {
            let movement = DrawerMovement(
                id: Identifier.make(prefix: "mov_"), shiftId: shiftId ?? shift.id, kind: .payIn, amountMinor: amount, reason: reason,
                deviceId: database.device, createdAt: Date().roundedToMilliseconds)
            try await database.store.write { try $0.insert(movement) }
        }
        await #expect(throws: (any Error).self) { try await attempt(amount: 0) }
        await #expect(throws: (any Error).self) { try await attempt(reason: String(repeating: "é", count: 201)) }
        await #expect(throws: (any Error).self) { try await attempt(reason: "") }
        await #expect(throws: (any Error).self) { try await attempt(shiftId: "shift_missing") }
        try await attempt(reason: String(repeating: "é", count: 200))
        #expect(try database.store.rowCount(in: "drawer_movements") == 1)
    }

    @Test("opens racing through two store instances (two nodes) on one device: one opens, the others are refused with its id")
    func racingOpens() async throws {
        let database = try await TestDatabase()
        let tills = [database.till(), Till(store: try database.reopen(), taxRate: StorageFixtures.rate875, currency: .usd)]
        let device = database.device
        let results = await concurrentResults(8) { index -> String? in
            do {
                return try await tills[index % 2].openShift(device: device, openingFloatMinor: Int64(index), idempotency: nil)
                    .performedWithoutKey().shift.id
            } catch POSError.shiftAlreadyOpen {
                return nil
            }
        }
        let opened = try results.compactMap { try $0.get() }
        #expect(opened.count == 1)
        #expect(try database.store.openShift(deviceId: device)?.id == opened.first)
        #expect(try database.store.rowCount(in: "drawer_shifts") == 1)
    }
}
