import Foundation
import RoutemapDomain
@testable import RoutemapStorage
import Testing

@Suite("Paying is one transaction")
struct AtomicPaymentTests {
    @Test(
        "if recording the payment fails, the bill stays checked out, no payment, no next bill",
        arguments: [FailingPaymentStore.Failure.afterInsert, .duplicateInsert])
    func paymentFailure(failure: FailingPaymentStore.Failure) async throws {
        let database = try await TestDatabase()
        let device = database.device
        let till = database.till()
        let bill = try await till.openBill(device: device)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        let checkedOut = try await till.checkout(billId: bill.id, device: device)

        let failing = Till(
            store: FailingPaymentStore(base: database.store, failure: failure), taxRate: StorageFixtures.rate875, currency: .usd)
        let request = PaymentRequest(method: .cash, amountMinor: checkedOut.totalMinor, tenderedMinor: 1_000)
        switch failure {
        case .afterInsert, .afterStock:
            await #expect(throws: FailingPaymentStore.InjectedFailure()) { try await failing.pay(billId: bill.id, device: device, request) }
        case .duplicateInsert:
            await #expect(throws: StorageError.self) { try await failing.pay(billId: bill.id, device: device, request) }
        }

        #expect(try till.bill(id: bill.id, device: device) == checkedOut)
        #expect(try database.store.bill(id: bill.id)?.payments == [])
        #expect(try database.store.rowCount(in: "payments") == 0)
        #expect(try database.store.rowCount(in: "bills") == 1)
        #expect(try await till.currentBill(device: device) == checkedOut)

        // And the real store then pays it normally.
        let outcome = try await till.pay(billId: bill.id, device: device, request)
        #expect(outcome.bill.status == .paid)
        #expect(try database.store.rowCount(in: "payments") == 1)
    }
}
