import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

@Suite("A device's read-only view of its bills")
struct BillReaderTests {
    let store = InMemoryStore(menu: Fixtures.menu)
    let owner = Fixtures.device
    let intruder = Fixtures.otherDevice

    private var till: Till { Till(store: store, taxRate: Fixtures.rate875, currency: .usd) }

    @Test("reads the device's own bills; another device's bill, or a missing one, is not found")
    func ownBillsOnly() async throws {
        let bill = try await till.addItem(billId: try await till.openBill(device: owner).id, device: owner, menuItemId: "latte", quantity: 1)
        let reader = till.reader(for: owner)
        #expect(reader.device == owner)
        #expect(try reader.bill(id: bill.id) == bill)
        #expect(throws: POSError.billNotFound(bill.id)) { try till.reader(for: intruder).bill(id: bill.id) }
        #expect(throws: POSError.billNotFound("bill_missing")) { try reader.bill(id: "bill_missing") }
    }

    @Test("the current bill is the newest unpaid one, and reading never creates one")
    func currentBillWithoutCreating() async throws {
        let reader = till.reader(for: owner)
        #expect(try reader.currentBill() == nil)
        #expect(store.snapshot.bills.isEmpty)
        #expect(store.snapshot.committedDurabilities.isEmpty, "a read commits nothing")

        let first = try await till.openBill(device: owner)
        let second = try await till.openBill(device: owner)
        #expect(try reader.currentBill() == second)
        #expect(try till.reader(for: intruder).currentBill() == nil)

        _ = try await till.addItem(billId: second.id, device: owner, menuItemId: "latte", quantity: 1)
        let checkedOut = try await till.checkout(billId: second.id, device: owner)
        #expect(try reader.currentBill() == checkedOut)
        let outcome = try await till.pay(billId: second.id, device: owner, PaymentRequest(method: .card, amountMinor: checkedOut.totalMinor))
        #expect(try reader.currentBill() == outcome.nextBill)
        // The next bill is the empty bill opened first, taken up (selected again), not another one.
        #expect(outcome.nextBill.id == first.id && outcome.nextBill.version == first.version + 1)
        #expect(store.snapshot.bills.count == 2)
    }
}
