import Foundation
import RoutemapDomain
@testable import RoutemapStorage
import Testing

@Suite("Paying is one transaction")
struct AtomicPaymentTests {
    @Test(
        "if recording the payment fails, the bill stays checked out, no payment, no next bill",
        arguments: [FailingPaymentStore.Failure.afterInsert, .duplicateInsert])
    func paymentFailure(failure: FailingPaymentStore.Failure) throws {
        let database = try TestDatabase()
        let device = database.device
        let till = database.till()
        let bill = try till.openBill(device: device)
        _ = try till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        let checkedOut = try till.checkout(billId: bill.id, device: device)

        let failing = Till(
            store: FailingPaymentStore(base: database.store, failure: failure), taxRate: StorageFixtures.rate875, currency: .usd)
        let request = PaymentRequest(method: .cash, amountMinor: checkedOut.totalMinor, tenderedMinor: 1_000)
        switch failure {
        case .afterInsert:
            #expect(throws: FailingPaymentStore.InjectedFailure()) { try failing.pay(billId: bill.id, device: device, request) }
        case .duplicateInsert:
            #expect(throws: StorageError.self) { try failing.pay(billId: bill.id, device: device, request) }
        }

        #expect(try till.bill(id: bill.id, device: device) == checkedOut)
        #expect(try database.store.payment(billId: bill.id) == nil)
        #expect(try database.store.rowCount(in: "payments") == 0)
        #expect(try database.store.rowCount(in: "bills") == 1)
        #expect(try till.currentBill(device: device) == checkedOut)

        // And the real store then pays it normally.
        let outcome = try till.pay(billId: bill.id, device: device, request)
        #expect(outcome.bill.status == .paid)
        #expect(try database.store.rowCount(in: "payments") == 1)
    }
}
