import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

@Suite("Which writes ask for full durability")
struct DurabilityTests {
    let store = InMemoryStore(menu: Fixtures.menu)
    let device = Fixtures.device

    @Test("paying commits with full durability; opening, editing and checking out with normal")
    func payIsFull() async throws {
        let till = Till(store: store, taxRate: Fixtures.rate875, currency: .usd)
        let bill = try await till.openBill(device: device)
        let lineId = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1).lines[0].lineId
        _ = try await till.setQuantity(billId: bill.id, device: device, lineId: lineId, quantity: 2)
        _ = try await till.checkout(billId: bill.id, device: device)
        _ = try await till.cancelCheckout(billId: bill.id, device: device)
        let total = try await till.checkout(billId: bill.id, device: device).totalMinor
        #expect(store.snapshot.committedDurabilities == Array(repeating: .normal, count: 6))

        _ = try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: total))
        #expect(store.snapshot.committedDurabilities.last == .full)
        #expect(store.snapshot.committedDurabilities.count == 7)
    }

    @Test("a keyed payment, and a recorded refusal to pay, commit with full durability too")
    func keyedPayIsFull() async throws {
        let till = Till(store: store, taxRate: Fixtures.rate875, currency: .usd)
        let bill = try await till.openBill(device: device)
        await #expect(throws: POSError.billNotCheckedOut(.open)) {
            try await till.pay(
                billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: 0),
                idempotency: Keys.payment("k", fingerprint: "pay"))
        }
        #expect(store.snapshot.committedDurabilities == [.normal, .full])
        #expect(store.snapshot.recordedAnswers.count == 1)

        // A keyed payment that succeeds.
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        let total = try await till.checkout(billId: bill.id, device: device).totalMinor
        let outcome = try await till.pay(
            billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: total),
            idempotency: Keys.payment("k2", fingerprint: "pay"))
        #expect(outcome.performedValue != nil)
        #expect(store.snapshot.committedDurabilities.suffix(3) == [.normal, .normal, .full])
        #expect(store.snapshot.recordedAnswers.count == 2)
    }

    @Test("enrolling a device commits with full durability")
    func enrollIsFull() async throws {
        _ = try await DeviceDirectory(store: store).enroll(name: "Front counter")
        #expect(store.snapshot.committedDurabilities == [.full])
    }
}
