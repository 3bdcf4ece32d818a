import Foundation
import RoutemapDomain
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

@Suite("Till on a real database")
struct TillStorageTests {
    @Test("open → add → add same → set quantity → remove → checkout → pay → next bill")
    func orderFlow() async throws {
        let database = try await TestDatabase()
        let device = database.device
        let till = database.till()
        let bill = try await till.openBill(device: device)
        #expect(try till.bill(id: bill.id, device: device) == bill)

        var changed = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 2)
        changed = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 1)
        changed = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        #expect(changed.lines.map(\.menuItemId) == ["latte", "croissant"])
        #expect(changed.lines.map(\.quantity) == [3, 1])
        let croissantLine = changed.lines[1].lineId
        changed = try await till.setQuantity(billId: bill.id, device: device, lineId: croissantLine, quantity: 4)
        #expect(changed.lines[1].quantity == 4)
        changed = try await till.addItem(billId: bill.id, device: device, menuItemId: "bagel", quantity: 1)
        changed = try await till.removeLine(billId: bill.id, device: device, lineId: croissantLine)
        #expect(changed.lines.map(\.menuItemId) == ["latte", "bagel"])
        #expect(try till.bill(id: bill.id, device: device) == changed)

        let checkedOut = try await till.checkout(billId: bill.id, device: device)
        // 3 × 475 = 1425 → tax 125; 450 → tax 39.375 → 39.
        #expect(checkedOut.subtotalMinor == 1_875)
        #expect(checkedOut.taxMinor == 164)
        #expect(checkedOut.totalMinor == 2_039)
        #expect(checkedOut.version == 8)
        await #expect(throws: POSError.billNotOpen(.checkedOut)) { try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1) }

        let outcome = try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .cash, amountMinor: 2_039, tenderedMinor: 2_500))
        #expect(outcome.payment.changeMinor == 461)
        #expect(try till.bill(id: bill.id, device: device) == outcome.bill)
        #expect(outcome.bill.status == .paid)
        #expect(try database.store.payment(id: outcome.payment.id) == outcome.payment)
        let next = try till.bill(id: outcome.nextBill.id, device: device)
        #expect(next == outcome.nextBill)
        #expect(next.status == .open)
        #expect(try await till.currentBill(device: device) == next)
    }

    @Test("empty open bill: the device's open bill without lines selected last, as the transaction's own writes left it")
    func emptyOpenBill() async throws {
        let database = try await TestDatabase()
        let device = database.device
        let other = try await database.enrollDevice()
        let clock = TestClock()
        let till = database.till(now: clock.function)
        let empty = { try await database.store.write { try $0.emptyOpenBill(deviceId: device)?.id } }
        #expect(try await empty() == nil)

        let first = try await till.openBill(device: device)
        clock.advance(by: 1)
        let second = try await till.openBill(device: device)
        clock.advance(by: 1)
        _ = try await till.openBill(device: other)
        #expect(try await empty() == second.id)
        _ = try await till.addItem(billId: second.id, device: device, menuItemId: "latte", quantity: 1)
        #expect(try await empty() == first.id)
        // A checked-out bill is not open; a voided one not unsettled.
        _ = try await till.checkout(billId: second.id, device: device)
        clock.advance(by: 1)
        _ = try await till.void(billId: first.id, device: device, reason: "mistake", idempotency: nil)
        #expect(try await empty() == nil)

        // Inside one transaction: a new bill is found, then no longer once it has a line.
        let fresh = try Bill(
            id: Identifier.make(prefix: "bill_"), currency: .usd, taxRate: StorageFixtures.rate875, createdAt: clock.now, deviceId: device)
        let seen = try await database.store.write { transaction -> [String?] in
            try transaction.insert(fresh)
            let found = try transaction.emptyOpenBill(deviceId: device)
            var bill = try #require(found)
            try bill.add(try #require(try transaction.menuItem(id: "latte")), quantity: 1)
            try transaction.update(bill)
            return [found?.id, try transaction.emptyOpenBill(deviceId: device)?.id]
        }
        #expect(seen == [fresh.id, nil])
    }

    @Test("paying table after table takes up the till's empty bill instead of opening another")
    func payingTakesUpTheEmptyBill() async throws {
        let database = try await TestDatabase()
        let device = database.device
        let clock = TestClock()
        let till = database.till(now: clock.function)
        let tableA = try await till.currentBill(device: device)
        _ = try await till.addItem(billId: tableA.id, device: device, menuItemId: "latte", quantity: 1)
        clock.advance(by: 1)
        let tableB = try await till.openBill(device: device)
        _ = try await till.addItem(billId: tableB.id, device: device, menuItemId: "croissant", quantity: 1)
        let checkedOutB = try await till.checkout(billId: tableB.id, device: device)
        let paidB = try await till.pay(billId: tableB.id, device: device, PaymentRequest(method: .card, amountMinor: checkedOutB.totalMinor))
        #expect(paidB.nextBill.lines.isEmpty && paidB.nextBill.version == 1)

        clock.advance(by: 1)
        _ = try await till.resume(billId: tableA.id, device: device, idempotency: nil)
        let checkedOutA = try await till.checkout(billId: tableA.id, device: device)
        clock.advance(by: 1)
        let paidA = try await till.pay(billId: tableA.id, device: device, PaymentRequest(method: .card, amountMinor: checkedOutA.totalMinor))
        #expect(paidA.nextBill.id == paidB.nextBill.id)
        #expect(paidA.nextBill.selectedAt == clock.now)
        #expect(paidA.nextBill.version == paidB.nextBill.version + 1)
        #expect(try till.bill(id: paidA.nextBill.id, device: device) == paidA.nextBill)
        #expect(try await till.currentBill(device: device) == paidA.nextBill)
        #expect(try till.bills(device: device, statuses: [.open, .checkedOut], after: nil, limit: 10).bills == [paidA.nextBill])
        #expect(try database.store.rowCount(in: "bills") == 3)
    }

    @Test("current bill: created once, then the same one, across store instances")
    func currentBillOnce() async throws {
        let database = try await TestDatabase()
        let device = database.device
        let first = try await database.till().currentBill(device: device)
        #expect(try await database.till().currentBill(device: device) == first)
        let other = try database.reopen()
        #expect(try await Till(store: other, taxRate: StorageFixtures.rate875, currency: .usd).currentBill(device: device) == first)
        #expect(try database.store.rowCount(in: "bills") == 1)
    }

    @Test("a bill read that fails is the store's error: not a bad cursor when listing, not an unknown payment")
    func failedBillReads() async throws {
        let database = try await TestDatabase()
        let device = database.device
        let till = database.till()
        let bill = try await till.addItem(billId: try await till.openBill(device: device).id, device: device, menuItemId: "espresso", quantity: 1)
        let total = try await till.checkout(billId: bill.id, device: device).totalMinor
        let payment = try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: total)).payment
        // Paying opened the next bill: the one to list after.
        let cursor = try #require(try till.bills(device: device, statuses: [.open, .checkedOut], after: nil, limit: 1).bills.first).id

        let failing = Till(store: UnreachableBillReads(base: database.store), taxRate: StorageFixtures.rate875, currency: .usd)
        #expect(throws: StoreUnavailable.self) { try failing.bills(device: device, statuses: [.open, .checkedOut], after: cursor, limit: 1) }
        #expect(throws: StoreUnavailable.self) { try failing.payment(id: payment.id, device: device) }
        // What the store answers still decides: an unknown cursor and an unknown payment.
        #expect(throws: POSError.invalidCursor("bill_nope")) { try till.bills(device: device, statuses: [.open], after: "bill_nope", limit: 1) }
        #expect(throws: POSError.paymentNotFound("pay_nope")) { try till.payment(id: "pay_nope", device: device) }
        #expect(try till.payment(id: payment.id, device: device) == payment)
    }

    @Test("card payment on the real file: exact amount, no change")
    func cardPayment() async throws {
        let database = try await TestDatabase()
        let device = database.device
        let till = database.till()
        let bill = try await till.openBill(device: device)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "espresso", quantity: 1)
        let total = try await till.checkout(billId: bill.id, device: device).totalMinor
        await #expect(throws: POSError.tenderNotAllowed) {
            try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: total, tenderedMinor: total + 1))
        }
        let outcome = try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: total))
        #expect(outcome.payment.tenderedMinor == total)
        #expect(outcome.payment.changeMinor == 0)
        #expect(try database.store.payment(id: outcome.payment.id)?.method == .card)
    }

    @Test("an unavailable demo item is refused")
    func unavailable() async throws {
        let database = try await TestDatabase()
        let device = database.device
        let till = database.till()
        let bill = try await till.openBill(device: device)
        await #expect(throws: POSError.menuItemUnavailable("pumpkin-spice-latte")) {
            try await till.addItem(billId: bill.id, device: device, menuItemId: "pumpkin-spice-latte", quantity: 1)
        }
        await #expect(throws: POSError.unknownMenuItem("unicorn")) { try await till.addItem(billId: bill.id, device: device, menuItemId: "unicorn", quantity: 1) }
        #expect(try till.bill(id: bill.id, device: device).version == 1)
    }
}

/// Forwards to a real store, except that reading a bill by id fails as when the database does
/// not answer.
private struct UnreachableBillReads: ForwardingStore {
    let base: any POSStore
    var forwarded: any POSStore { base }

    func bill(id: String) throws -> Bill? {
        throw StoreUnavailable(.unreachable, detail: "injected: reading bill \(id)")
    }

    func write<T: Sendable>(durability: Durability, _ body: @escaping @Sendable (any POSTransaction) throws -> T) async throws -> T {
        try await base.write(durability: durability, body)
    }
}
