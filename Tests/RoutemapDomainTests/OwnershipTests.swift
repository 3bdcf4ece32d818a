import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

@Suite("A bill belongs to the device that opened it")
struct OwnershipTests {
    let store = InMemoryStore(menu: Fixtures.menu)
    let owner = Fixtures.device
    let intruder = Fixtures.otherDevice

    private var till: Till { Till(store: store, taxRate: Fixtures.rate875, currency: .usd) }

    /// The owner's bills: an open one with a latte line, and a checked-out one.
    private func ownersBills() async throws -> (open: Bill, checkedOut: Bill) {
        let till = till
        let open = try await till.addItem(billId: try await till.openBill(device: owner).id, device: owner, menuItemId: "latte", quantity: 1)
        let other = try await till.addItem(billId: try await till.openBill(device: owner).id, device: owner, menuItemId: "croissant", quantity: 2)
        return (open, try await till.checkout(billId: other.id, device: owner))
    }

    @Test("another device gets billNotFound from every bill operation, and nothing changes")
    func otherDeviceRefused() async throws {
        let till = till
        let (open, checkedOut) = try await ownersBills()
        let lineId = open.lines[0].lineId
        let payment = PaymentRequest(method: .card, amountMinor: checkedOut.totalMinor)
        let before = store.snapshot

        func refused(_ bill: Bill, _ operation: () async throws -> Any) async {
            await #expect(throws: POSError.billNotFound(bill.id)) { _ = try await operation() }
        }
        await refused(open) { try till.bill(id: open.id, device: intruder) }
        await refused(open) { try await till.addItem(billId: open.id, device: intruder, menuItemId: "latte", quantity: 1) }
        await refused(open) { try await till.setQuantity(billId: open.id, device: intruder, lineId: lineId, quantity: 5) }
        await refused(open) { try await till.removeLine(billId: open.id, device: intruder, lineId: lineId) }
        await refused(open) { try await till.checkout(billId: open.id, device: intruder) }
        await refused(open) { try await till.checkout(billId: open.id, device: intruder, idempotency: Keys.bill("k-checkout")) }
        await refused(checkedOut) { try till.bill(id: checkedOut.id, device: intruder) }
        await refused(checkedOut) { try await till.cancelCheckout(billId: checkedOut.id, device: intruder) }
        await refused(checkedOut) { try await till.pay(billId: checkedOut.id, device: intruder, payment) }
        await refused(checkedOut) {
            try await till.pay(billId: checkedOut.id, device: intruder, payment, idempotency: Keys.payment("k-pay", fingerprint: "pay"))
        }
        // The bill's state is not revealed either: what would be a state conflict for the owner
        // is still "not found" for anyone else.
        await refused(checkedOut) { try await till.addItem(billId: checkedOut.id, device: intruder, menuItemId: "latte", quantity: 1) }
        await refused(open) { try await till.pay(billId: open.id, device: intruder, payment) }
        await refused(open) { try await till.cancelCheckout(billId: open.id, device: intruder) }

        let after = store.snapshot
        #expect(after.bills == before.bills)
        #expect(after.billOrder == before.billOrder)
        #expect(after.payments.isEmpty)
        #expect(after.recordedAnswers.isEmpty)
        #expect(after.committedDurabilities == before.committedDurabilities, "a refused request commits nothing")

        // Each was refused for the device, not for the bill's state: the owner may do them all.
        #expect(try till.bill(id: open.id, device: owner) == open)
        let lineId2 = try await till.addItem(billId: open.id, device: owner, menuItemId: "croissant", quantity: 1).lines[1].lineId
        _ = try await till.setQuantity(billId: open.id, device: owner, lineId: lineId, quantity: 5)
        _ = try await till.removeLine(billId: open.id, device: owner, lineId: lineId2)
        #expect(try await till.checkout(billId: open.id, device: owner).status == .checkedOut)
        #expect(try await till.cancelCheckout(billId: open.id, device: owner).status == .open)
        #expect(try await till.pay(billId: checkedOut.id, device: owner, payment).bill.status == .paid)
    }

    @Test("a bill from before devices existed belongs to no device")
    func unownedBill() async throws {
        let legacy = try Bill(id: "bill_legacy", currency: .usd, taxRate: Fixtures.rate875, createdAt: Fixtures.createdAt)
        try await store.write { try $0.insert(legacy) }
        let till = till
        for device in [owner, intruder, ""] {
            #expect(throws: POSError.billNotFound("bill_legacy")) { try till.bill(id: "bill_legacy", device: device) }
            await #expect(throws: POSError.billNotFound("bill_legacy")) {
                try await till.addItem(billId: "bill_legacy", device: device, menuItemId: "latte", quantity: 1)
            }
        }
        // Nor is it anyone's current bill.
        #expect(try await till.currentBill(device: owner).id != "bill_legacy")
        #expect(store.snapshot.bills["bill_legacy"] == legacy)
    }

    @Test("each device has its own current bill, created once, unaffected by the other's bills")
    func currentBillPerDevice() async throws {
        let till = till
        let mine = try await till.currentBill(device: owner)
        let theirs = try await till.currentBill(device: intruder)
        #expect(mine.id != theirs.id)
        #expect(mine.deviceId == owner)
        #expect(theirs.deviceId == intruder)
        #expect(try await till.currentBill(device: owner) == mine)
        #expect(try await till.currentBill(device: intruder) == theirs)
        #expect(store.snapshot.bills.count == 2)

        // A newer bill of the owner's is the owner's current bill only.
        let newer = try await till.openBill(device: owner)
        #expect(try await till.currentBill(device: owner) == newer)
        #expect(try await till.currentBill(device: intruder) == theirs)

        // Paying the owner's bill moves the owner on, not the other device.
        _ = try await till.addItem(billId: newer.id, device: owner, menuItemId: "latte", quantity: 1)
        let checkedOut = try await till.checkout(billId: newer.id, device: owner)
        let outcome = try await till.pay(billId: newer.id, device: owner, PaymentRequest(method: .card, amountMinor: checkedOut.totalMinor))
        #expect(outcome.nextBill.deviceId == owner)
        #expect(try await till.currentBill(device: owner) == outcome.nextBill)
        #expect(try await till.currentBill(device: intruder) == theirs)
    }
}
