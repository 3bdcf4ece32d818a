import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

@Suite("Several open orders per till: list, resume, void, read payments back")
struct OpenOrdersTests {
    let store = InMemoryStore(menu: Fixtures.menu)
    let clock = TestClock()
    let device = Fixtures.device

    private var till: Till { Till(store: store, taxRate: Fixtures.rate875, currency: .usd, now: clock.function) }

    /// Opens a bill a second after the last one, holding one latte.
    private func openTable() async throws -> Bill {
        clock.advance(by: 1)
        let bill = try await till.openBill(device: device)
        return try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
    }

    /// Checks `bill` out and pays it by card, a second later.
    private func pay(_ bill: Bill) async throws -> PaymentOutcome {
        clock.advance(by: 1)
        let checkedOut = try await till.checkout(billId: bill.id, device: device)
        return try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: checkedOut.totalMinor))
    }

    @Test("the current bill is the one opened or resumed last; resuming a settled bill is refused")
    func resume() async throws {
        let first = try await openTable()
        let second = try await openTable()
        #expect(try await till.currentBill(device: device).id == second.id)
        clock.advance(by: 1)
        let resumed = try #require(try await till.resume(billId: first.id, device: device, idempotency: nil).performedValue)
        #expect(resumed.version == first.version + 1)
        #expect(resumed.selectedAt == clock.now)
        #expect(try await till.currentBill(device: device).id == first.id)
        #expect(try till.reader(for: device).currentBill()?.id == first.id)
        // Another device cannot resume it.
        await #expect(throws: POSError.billNotFound(second.id)) {
            try await till.resume(billId: second.id, device: Fixtures.otherDevice, idempotency: nil)
        }
        let checkedOut = try await till.checkout(billId: first.id, device: device)
        _ = try await till.pay(billId: first.id, device: device, PaymentRequest(method: .card, amountMinor: checkedOut.totalMinor))
        await #expect(throws: POSError.billSettled(.paid)) { try await till.resume(billId: first.id, device: device, idempotency: nil) }
    }

    @Test("a page size out of range, or a settled status, is refused with an error, not a trap")
    func pageOutOfRange() async throws {
        _ = try await openTable()
        for limit in [0, -1, Till.maxPageSize + 1] {
            #expect(throws: InvariantViolation.self) { try till.bills(device: device, statuses: [.open], after: nil, limit: limit) }
        }
        #expect(throws: InvariantViolation.self) { try till.bills(device: device, statuses: [.paid], after: nil, limit: 10) }
        #expect(try till.bills(device: device, statuses: [.open], after: nil, limit: Till.maxPageSize).bills.count == 1)
    }

    @Test("a voided bill keeps its lines and reason and takes no further change")
    func voidKeepsLines() async throws {
        let bill = try await openTable()
        let outcome = try #require(try await till.void(billId: bill.id, device: device, reason: "Opened by mistake", idempotency: nil).performedValue)
        #expect(outcome.bill.status == .voided)
        #expect(outcome.bill.lines == bill.lines)
        #expect(outcome.bill.voiding == BillVoiding(reason: "Opened by mistake", voidedAt: clock.now))
        #expect(try till.bill(id: bill.id, device: device) == outcome.bill)
        await #expect(throws: POSError.billNotOpen(.voided)) {
            try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        }
        await #expect(throws: POSError.billNotOpen(.voided)) { try await till.checkout(billId: bill.id, device: device) }
        await #expect(throws: POSError.billNotCheckedOut(.voided)) {
            try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: bill.totalMinor))
        }
        await #expect(throws: POSError.billSettled(.voided)) {
            try await till.void(billId: bill.id, device: device, reason: "again", idempotency: nil)
        }
        #expect(try till.bill(id: bill.id, device: device) == outcome.bill)
    }

    @Test("voiding the current bill makes the bill selected last before it current, or opens a new one")
    func voidMovesCurrent() async throws {
        let first = try await openTable()
        let second = try await openTable()
        let third = try await openTable()
        clock.advance(by: 1)
        _ = try await till.resume(billId: first.id, device: device, idempotency: nil)
        // Selected last: first (resumed), then third, then second.
        var outcome = try #require(try await till.void(billId: first.id, device: device, reason: "left", idempotency: nil).performedValue)
        #expect(outcome.nextBill.id == third.id)
        // Voiding a bill that is not current leaves the current one.
        outcome = try #require(try await till.void(billId: second.id, device: device, reason: "left", idempotency: nil).performedValue)
        #expect(outcome.nextBill.id == third.id)
        let count = store.snapshot.bills.count
        outcome = try #require(try await till.void(billId: third.id, device: device, reason: "left", idempotency: nil).performedValue)
        #expect(outcome.nextBill.status == .open && outcome.nextBill.lines.isEmpty)
        #expect(store.snapshot.bills.count == count + 1)
        #expect(try await till.currentBill(device: device) == outcome.nextBill)
    }

    @Test("paying takes up the device's empty open bill as the next bill, current now; an explicit new bill is still new")
    func payTakesUpEmptyBill() async throws {
        let tableA = try await openTable()
        let tableB = try await openTable()
        let othersEmpty = try await till.openBill(device: Fixtures.otherDevice)
        let paidB = try await pay(tableB)
        // No empty bill of its own (another device's does not count): a new one.
        #expect(paidB.nextBill.id != othersEmpty.id && paidB.nextBill.version == 1)

        clock.advance(by: 1)
        _ = try await till.resume(billId: tableA.id, device: device, idempotency: nil)
        clock.advance(by: 1)
        let paidA = try await pay(tableA)
        #expect(paidA.nextBill.id == paidB.nextBill.id)
        #expect(paidA.nextBill.selectedAt == clock.now)
        #expect(paidA.nextBill.status == .open && paidA.nextBill.lines.isEmpty)
        #expect(try await till.currentBill(device: device) == paidA.nextBill)
        #expect(try till.bills(device: device, statuses: [.open, .checkedOut], after: nil, limit: 10).bills == [paidA.nextBill])

        // "New bill" opens one even while an empty one exists: the cashier asked for it.
        let opened = try await till.openBill(device: device)
        #expect(opened.id != paidA.nextBill.id)
        #expect(store.snapshot.bills.count == 5)
    }

    @Test("an empty bill opened under another tax rate is not taken up after a payment: the next customer pays today's rate")
    func payLeavesEmptyBillOfAnotherRate() async throws {
        let stale = try await till.openBill(device: device)  // empty, at 8.75 %
        let table = try await openTable()
        // The server restarts with a new rate.
        let today = Till(store: store, taxRate: TaxRate(basisPoints: 1000)!, currency: .usd, now: clock.function)
        clock.advance(by: 1)
        let checkedOut = try await today.checkout(billId: table.id, device: device)
        let paid = try await today.pay(billId: table.id, device: device, PaymentRequest(method: .card, amountMinor: checkedOut.totalMinor))
        #expect(paid.nextBill.id != stale.id)
        #expect(paid.nextBill.taxRate == TaxRate(basisPoints: 1000)!)
    }

    @Test("a checked-out bill can be voided; a paid one cannot")
    func voidCheckedOut() async throws {
        let bill = try await openTable()
        _ = try await till.checkout(billId: bill.id, device: device)
        let outcome = try #require(try await till.void(billId: bill.id, device: device, reason: "walked out", idempotency: nil).performedValue)
        #expect(outcome.bill.status == .voided)
        #expect(store.snapshot.payments.isEmpty)
    }

    @Test("unsettled bills are listed newest first by pages; settled ones and other devices' are not")
    func listing() async throws {
        var opened: [Bill] = []
        for _ in 0..<5 { opened.append(try await openTable()) }
        _ = try await till.checkout(billId: opened[1].id, device: device)
        _ = try await till.void(billId: opened[2].id, device: device, reason: "mistake", idempotency: nil)
        clock.advance(by: 1)
        _ = try await till.openBill(device: Fixtures.otherDevice)
        let all: Set<BillStatus> = [.open, .checkedOut]
        let first = try till.bills(device: device, statuses: all, after: nil, limit: 2)
        #expect(first.bills.map(\.id) == [opened[4].id, opened[3].id])
        #expect(first.nextCursor == opened[3].id)
        let second = try till.bills(device: device, statuses: all, after: first.nextCursor, limit: 2)
        #expect(second.bills.map(\.id) == [opened[1].id, opened[0].id])
        #expect(second.nextCursor == nil)
        #expect(try till.bills(device: device, statuses: [.checkedOut], after: nil, limit: 10).bills.map(\.id) == [opened[1].id])
        #expect(try till.bills(device: device, statuses: [.open], after: nil, limit: 10).bills.count == 3)
        #expect(throws: POSError.invalidCursor("bill_nope")) { try till.bills(device: device, statuses: all, after: "bill_nope", limit: 2) }
        #expect(throws: POSError.invalidCursor(opened[0].id)) {
            try till.bills(device: Fixtures.otherDevice, statuses: all, after: opened[0].id, limit: 2)
        }
    }

    @Test("a paid bill's payment reads back, only for its device")
    func paymentReadBack() async throws {
        let bill = try await openTable()
        let checkedOut = try await till.checkout(billId: bill.id, device: device)
        let outcome = try await till.pay(
            billId: bill.id, device: device, PaymentRequest(method: .cash, amountMinor: checkedOut.totalMinor, tenderedMinor: 2_000))
        #expect(outcome.bill.completingPayment == outcome.payment)
        #expect(outcome.nextBill.completingPayment == nil)
        #expect(try till.payment(id: outcome.payment.id, device: device) == outcome.payment)
        #expect(throws: POSError.paymentNotFound(outcome.payment.id)) { try till.payment(id: outcome.payment.id, device: Fixtures.otherDevice) }
        #expect(throws: POSError.paymentNotFound("pay_nope")) { try till.payment(id: "pay_nope", device: device) }
    }

    @Test("line edits under a key: a retry gets the recorded answer and changes nothing; a limit of the bill is recorded")
    func idempotentLineEdits() async throws {
        let bill = try await openTable()
        let key = Keys.bill("add-1", fingerprint: "POST /v1/bills/x/items latte")
        let first = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 1, idempotency: key)
        let retry = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 1, idempotency: key)
        #expect(retry.replayed == first.recordedNow)
        #expect(try till.bill(id: bill.id, device: device).lines.count == 2)
        await #expect(throws: IdempotencyKeyReused(key: "add-1")) {
            try await till.addItem(
                billId: bill.id, device: device, menuItemId: "croissant", quantity: 2,
                idempotency: Keys.bill("add-1", fingerprint: "another body"))
        }
        // Raising the latte line past 999 is a conflict with what the bill holds: recorded.
        let limitKey = Keys.bill("add-2", fingerprint: "999 lattes")
        await #expect(throws: POSError.lineQuantityLimit(quantity: 1_000, limit: 999)) {
            try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 999, idempotency: limitKey)
        }
        #expect(store.snapshot.recordedAnswers.values.contains { $0.key == "add-2" && $0.deviceId == device })
        let line = try till.bill(id: bill.id, device: device).lines[1]
        let removeKey = Keys.bill("remove-1", fingerprint: "DELETE")
        let removed = try await till.removeLine(billId: bill.id, device: device, lineId: line.lineId, idempotency: removeKey)
        let again = try await till.removeLine(billId: bill.id, device: device, lineId: line.lineId, idempotency: removeKey)
        #expect(again.replayed == removed.recordedNow)
    }
}
