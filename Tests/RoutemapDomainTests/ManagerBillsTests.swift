import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

@Suite("A manager's hold on other devices' bills: read, list, transfer, void")
struct ManagerBillsTests {
    let store = InMemoryStore(menu: Fixtures.menu)
    let clock = TestClock()

    private var till: Till { Till(store: store, taxRate: Fixtures.rate875, currency: .usd, now: clock.function) }
    private var directory: DeviceDirectory { DeviceDirectory(store: store, now: clock.function) }

    /// Enrolls a till, a second till and a manager.
    private func enroll() async throws -> (lost: String, other: String, manager: BillCaller) {
        let lost = try await directory.enroll(name: "Lost tablet").device.id
        let other = try await directory.enroll(name: "Counter").device.id
        let manager = try await directory.enroll(name: "Office", role: .manager).device.id
        return (lost, other, BillCaller(deviceId: manager, role: .manager))
    }

    /// Opens a bill for `device` a second after the last one, holding one latte.
    private func openTable(_ device: String) async throws -> Bill {
        clock.advance(by: 1)
        let bill = try await till.openBill(device: device)
        return try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
    }

    @Test("a manager reads and lists any device's bills; a till still gets billNotFound for another's")
    func readAndList() async throws {
        let (lost, other, manager) = try await enroll()
        let first = try await openTable(lost)
        let second = try await till.checkout(billId: try await openTable(lost).id, device: lost)
        #expect(try till.bill(id: first.id, caller: manager) == first)
        #expect(throws: POSError.billNotFound(first.id)) { try till.bill(id: first.id, caller: .till(other)) }
        #expect(try till.bill(id: first.id, caller: .till(lost)) == first)
        _ = try await directory.revoke(id: lost)
        let page = try till.bills(ofDevice: lost, caller: manager, statuses: [.open, .checkedOut], after: nil, limit: 1)
        #expect(page.bills == [second])
        let next = try till.bills(ofDevice: lost, caller: manager, statuses: [.open, .checkedOut], after: page.nextCursor, limit: 1)
        #expect(next.bills == [first] && next.nextCursor == nil)
        #expect(throws: POSError.managerOnly) {
            try till.bills(ofDevice: lost, caller: .till(other), statuses: [.open], after: nil, limit: 10)
        }
        #expect(throws: DeviceError.deviceNotFound("dev_nobody")) {
            try till.bills(ofDevice: "dev_nobody", caller: manager, statuses: [.open], after: nil, limit: 10)
        }
        // An id of no bill is no cursor.
        #expect(throws: POSError.invalidCursor("bill_nosuch")) {
            try till.bills(ofDevice: lost, caller: manager, statuses: [.open], after: "bill_nosuch", limit: 10)
        }
        // A cursor stays a position when its bill is transferred meanwhile: the manager pages on.
        _ = try await till.transfer(billId: second.id, to: other, caller: manager, idempotency: nil)
        let after = try till.bills(ofDevice: lost, caller: manager, statuses: [.open, .checkedOut], after: page.nextCursor, limit: 1)
        #expect(after.bills == [first] && after.nextCursor == nil)
    }

    @Test("a transferred bill is the target's, not its current bill; its old device no longer reaches it")
    func transfer() async throws {
        let (lost, other, manager) = try await enroll()
        let current = try await till.currentBill(device: other)
        let tab = try await till.checkout(billId: try await openTable(lost).id, device: lost)
        _ = try await directory.revoke(id: lost)
        clock.advance(by: 1)
        let moved = try #require(try await till.transfer(billId: tab.id, to: other, caller: manager, idempotency: nil).performedValue)
        #expect(moved.deviceId == other && moved.status == .checkedOut && moved.lines == tab.lines && moved.version == tab.version + 1)
        #expect(moved.selectedAt < current.selectedAt)
        #expect(try till.bill(id: tab.id, device: other) == moved)
        #expect(throws: POSError.billNotFound(tab.id)) { try till.bill(id: tab.id, device: lost) }
        #expect(try till.bills(device: lost, statuses: [.open, .checkedOut], after: nil, limit: 10).bills.isEmpty)
        #expect(try till.bills(device: other, statuses: [.open, .checkedOut], after: nil, limit: 10).bills.map(\.id) == [tab.id, current.id])
        // The target keeps the bill it is on, and pays the transferred one when it wants.
        #expect(try await till.currentBill(device: other).id == current.id)
        let paid = try await till.pay(billId: tab.id, device: other, PaymentRequest(method: .card, amountMinor: tab.totalMinor))
        #expect(paid.bill.status == .paid && paid.bill.deviceId == other)
        // The old device cannot change it any more.
        await #expect(throws: POSError.billNotFound(tab.id)) { try await till.cancelCheckout(billId: tab.id, device: lost) }
    }

    @Test("a transferred bill comes after the target's own bills: a void falls back to the target's own older bill, a payment takes up its own empty bill")
    func transferredComesLast() async throws {
        let (lost, other, manager) = try await enroll()
        let older = try await till.currentBill(device: other)  // empty, the target's own
        clock.advance(by: 1)
        let working = try await openTable(other)  // the bill the target is on now
        let tab = try await till.checkout(billId: try await openTable(lost).id, device: lost)
        clock.advance(by: 1)
        _ = try #require(try await till.transfer(billId: tab.id, to: other, caller: manager, idempotency: nil).performedValue)
        // The target voids the bill it is on: its own older bill becomes current, not the
        // transferred one, though that was selected later on the lost till.
        clock.advance(by: 1)
        let voided = try await till.void(billId: working.id, caller: .till(other), reason: "wrong table", idempotency: nil)
        #expect(voided.performedValue?.nextBill.id == older.id)
        // It pays a bill of its own: the empty bill taken up is its own, not a transferred one.
        clock.advance(by: 1)
        let emptyMoved = try await till.openBill(device: lost)
        _ = try await till.transfer(billId: emptyMoved.id, to: other, caller: manager, idempotency: nil)
        let lunch = try await till.checkout(billId: try await openTable(other).id, device: other)
        let paid = try await till.pay(billId: lunch.id, device: other, PaymentRequest(method: .card, amountMinor: lunch.totalMinor))
        #expect(paid.nextBill.id == older.id)
    }

    @Test("a target with no unsettled bill gets a new current bill, so the transferred one is not selected by itself")
    func transferToIdleDevice() async throws {
        let (lost, other, manager) = try await enroll()
        let tab = try await openTable(lost)
        let moved = try #require(try await till.transfer(billId: tab.id, to: other, caller: manager, idempotency: nil).performedValue)
        let current = try #require(try till.reader(for: other).currentBill())
        #expect(current.id != moved.id && current.lines.isEmpty)
        #expect(store.snapshot.bills.values.filter { $0.deviceId == other }.count == 2)
        // The old device gets no new bill from it.
        #expect(try till.reader(for: lost).currentBill() == nil)
        // An empty open bill given to a device with none is the bill a new one would be: no second empty bill.
        let idle = try await directory.enroll(name: "Spare").device.id
        let empty = try await till.openBill(device: lost)
        _ = try await till.transfer(billId: empty.id, to: idle, caller: manager, idempotency: nil)
        #expect(store.snapshot.bills.values.filter { $0.deviceId == idle }.map(\.id) == [empty.id])
        #expect(try till.reader(for: idle).currentBill()?.id == empty.id)
    }

    @Test("transfer refuses a till, a settled bill, an unknown or revoked target; a refusal changes nothing")
    func transferRefusals() async throws {
        let (lost, other, manager) = try await enroll()
        let tab = try await openTable(lost)
        await #expect(throws: POSError.managerOnly) {
            try await till.transfer(billId: tab.id, to: other, caller: .till(lost), idempotency: nil)
        }
        await #expect(throws: POSError.billNotFound("bill_missing")) {
            try await till.transfer(billId: "bill_missing", to: other, caller: manager, idempotency: nil)
        }
        await #expect(throws: POSError.deviceNotActive("dev_nobody")) {
            try await till.transfer(billId: tab.id, to: "dev_nobody", caller: manager, idempotency: nil)
        }
        _ = try await directory.revoke(id: other)
        await #expect(throws: POSError.deviceNotActive(other)) {
            try await till.transfer(billId: tab.id, to: other, caller: manager, idempotency: nil)
        }
        #expect(try till.bill(id: tab.id, device: lost) == tab)
        let voided = try #require(try await till.void(billId: tab.id, device: lost, reason: "walked out", idempotency: nil).performedValue)
        await #expect(throws: POSError.billSettled(.voided)) {
            try await till.transfer(billId: tab.id, to: manager.deviceId, caller: manager, idempotency: nil)
        }
        #expect(try till.bill(id: tab.id, caller: manager) == voided.bill)
        // To the device that has it: nothing changes.
        let mine = try await openTable(lost)
        #expect(try await till.transfer(billId: mine.id, to: lost, caller: manager, idempotency: nil).performedValue == mine)
    }

    @Test("a transfer under a key is done once; the retry replays it, a settled bill's conflict is recorded too")
    func transferReplay() async throws {
        let (lost, other, manager) = try await enroll()
        let tab = try await openTable(lost)
        let key = Keys.bill("t1", fingerprint: "POST /v1/bills/\(tab.id)/transfer \(other)")
        let first = try await till.transfer(billId: tab.id, to: other, caller: manager, idempotency: key)
        let moved = try #require(first.performedValue)
        let recorded = try #require(first.recordedNow)
        #expect(recorded.deviceId == manager.deviceId)
        let again = try await till.transfer(billId: tab.id, to: other, caller: manager, idempotency: key)
        #expect(again.replayed == recorded)
        #expect(try till.bill(id: tab.id, device: other) == moved)

        // Paid: a transfer under a new key is refused as settled, and the refusal is what its retry gets.
        _ = try await till.checkout(billId: tab.id, device: other)
        _ = try await till.pay(billId: tab.id, device: other, PaymentRequest(method: .card, amountMinor: tab.totalMinor))
        let settledKey = Keys.bill("t2", fingerprint: "POST /v1/bills/\(tab.id)/transfer \(lost)")
        await #expect(throws: POSError.billSettled(.paid)) {
            try await till.transfer(billId: tab.id, to: lost, caller: manager, idempotency: settledKey)
        }
        let refusal = try #require(store.snapshot.recordedAnswers.values.first { $0.deviceId == manager.deviceId && $0.key == "t2" })
        #expect(refusal.answer == Array("conflict \(POSError.billSettled(.paid))".utf8))
        #expect(try await till.transfer(billId: tab.id, to: lost, caller: manager, idempotency: settledKey).replayed == refusal)
    }

    @Test("the old till's retry of a change it made before the transfer replays its answer; a new change gets billNotFound")
    func retryAfterTransfer() async throws {
        let (lost, other, manager) = try await enroll()
        let tab = try await openTable(lost)
        let key = Keys.bill("add-1", fingerprint: "POST /v1/bills/\(tab.id)/items latte")
        let added = try await till.addItem(billId: tab.id, device: lost, menuItemId: "latte", quantity: 1, idempotency: key)
        let recorded = try #require(added.recordedNow)
        _ = try await till.transfer(billId: tab.id, to: other, caller: manager, idempotency: nil)
        // The answer was lost on the way: the till retries with the same key.
        let retry = try await till.addItem(billId: tab.id, device: lost, menuItemId: "latte", quantity: 1, idempotency: key)
        #expect(retry.replayed == recorded)
        #expect(try till.bill(id: tab.id, device: other).lines.map(\.quantity) == [2])
        await #expect(throws: POSError.billNotFound(tab.id)) {
            try await till.addItem(
                billId: tab.id, device: lost, menuItemId: "latte", quantity: 1, idempotency: Keys.bill("add-2", fingerprint: "add-2"))
        }
    }

    @Test("a manager voids another device's last unsettled bill: that device gets no new bill, the manager's current bill is next")
    func managerVoid() async throws {
        let (lost, other, manager) = try await enroll()
        let tab = try await till.checkout(billId: try await openTable(lost).id, device: lost)
        await #expect(throws: POSError.billNotFound(tab.id)) {
            try await till.void(billId: tab.id, device: other, reason: "not mine", idempotency: nil)
        }
        let outcome = try #require(
            try await till.void(billId: tab.id, caller: manager, reason: "Tablet lost", idempotency: nil).performedValue)
        #expect(outcome.bill.status == .voided && outcome.bill.deviceId == lost && outcome.previousStatus == .checkedOut)
        #expect(outcome.bill.voiding?.reason == "Tablet lost")
        #expect(outcome.nextBill.deviceId == manager.deviceId)
        #expect(try till.reader(for: lost).currentBill() == nil)
        #expect(store.snapshot.bills.values.filter { $0.deviceId == lost }.count == 1)
        await #expect(throws: POSError.billSettled(.voided)) {
            try await till.void(billId: tab.id, caller: manager, reason: "again", idempotency: nil)
        }
    }
}
