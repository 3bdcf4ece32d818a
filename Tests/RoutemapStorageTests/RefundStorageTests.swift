import Foundation
import RoutemapDomain
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// Refunds on a real database (SQLite, or PostgreSQL when `ROUTEMAP_TEST_DATABASE_URL` is set).
@Suite("Refunds on a real database")
struct RefundStorageTests {
    /// A manager enrolled on `database`, and a bill of its till holding two lattes (1033), paid by `method`.
    private func paidBill(_ database: TestDatabase, _ method: PaymentMethod, now: @escaping @Sendable () -> Date = Date.init) async throws
        -> (manager: BillCaller, bill: Bill, payment: Payment)
    {
        let manager = try await DeviceDirectory(store: database.store).enroll(name: "Office", role: .manager).device.id
        let till = database.till(now: now)
        let device = database.device
        let bill = try await till.addItem(billId: try await till.openBill(device: device).id, device: device, menuItemId: "latte", quantity: 2)
        _ = try await till.checkout(billId: bill.id, device: device)
        let paid = try await till.pay(
            billId: bill.id, device: device, PaymentRequest(method: method, amountMinor: bill.totalMinor, tenderedMinor: method == .cash ? 2000 : nil))
        return (BillCaller(deviceId: manager, role: .manager), paid.bill, paid.payment)
    }

    @Test("refunds are stored with their payment's method and read back oldest first, by this store and a new one; the bill is unchanged")
    func refundsStored() async throws {
        let database = try await TestDatabase()
        let clock = TestClock()
        let (manager, bill, payment) = try await paidBill(database, .cash, now: clock.function)
        let till = database.till(now: clock.function)
        #expect(try till.refunds(billId: bill.id, caller: manager) == (try BillRefunds(refunds: [], paidMinor: 1033)))
        clock.advance(by: 1)
        let first = try #require(
            try await till.refund(billId: bill.id, amountMinor: 500, reason: "Returned a latte", caller: manager, idempotency: nil).performedValue)
        // Two more in the same millisecond: they keep the order they were made in.
        let second = try #require(
            try await till.refund(billId: bill.id, amountMinor: 1, reason: "Ünïcode ☕️", caller: manager, idempotency: nil).performedValue)
        let third = try #require(
            try await till.refund(billId: bill.id, amountMinor: 532, reason: "Overcharged", caller: manager, idempotency: nil).performedValue)
        #expect(third.refundedMinor == 1033 && third.refundableMinor == 0)
        #expect(first.refund.method == .cash && first.refund.paymentId == payment.id && first.refund.deviceId == manager.deviceId)
        await #expect(throws: POSError.refundExceedsPayment(refundableMinor: 0)) {
            try await till.refund(billId: bill.id, amountMinor: 1, reason: "again", caller: manager, idempotency: nil)
        }
        for store in [database.store, try database.reopen()] {
            let reader = Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd)
            let listed = try reader.refunds(billId: bill.id, caller: manager)
            #expect(listed.refunds == [first.refund, second.refund, third.refund])
            #expect(listed.refundedMinor == 1033 && listed.refundableMinor == 0)
            #expect(try store.bill(id: bill.id) == bill)
            #expect(try store.bill(id: bill.id)?.completingPayment == payment)
        }
        #expect(try database.store.rowCount(in: "refunds") == 3)
    }

    @Test("refunds made in the same millisecond are listed in the order they were recorded, not by id")
    func sameMillisecond() async throws {
        let database = try await TestDatabase()
        let (manager, bill, payment) = try await paidBill(database, .card)
        let at = Date().roundedToMilliseconds
        // Ids in the order opposite to the one they are recorded in.
        let refunds = ["ref_c", "ref_b", "ref_a"].map { id in
            Refund(
                id: id, billId: bill.id, paymentId: payment.id, method: .card, amountMinor: 1, reason: "tie", deviceId: manager.deviceId,
                createdAt: at)
        }
        for refund in refunds { try await database.store.write { try $0.insert(refund) } }
        #expect(try database.store.refunds(billId: bill.id).map(\.id) == ["ref_c", "ref_b", "ref_a"])
    }

    @Test("the table's constraints refuse an amount below 1, a reason over 200 characters, and a payment that does not exist")
    func constraints() async throws {
        let database = try await TestDatabase()
        let (manager, bill, payment) = try await paidBill(database, .card)
        func attempt(amount: Int64 = 1, reason: String = "ok", paymentId: String? = nil) async throws {
            let refund = Refund(
                id: Identifier.make(prefix: "ref_"), billId: bill.id, paymentId: paymentId ?? payment.id, method: .card, amountMinor: amount,
                reason: reason, deviceId: manager.deviceId, createdAt: Date().roundedToMilliseconds)
            try await database.store.write { try $0.insert(refund) }
        }
        await #expect(throws: (any Error).self) { try await attempt(amount: 0) }
        await #expect(throws: (any Error).self) { try await attempt(reason: String(repeating: "é", count: 201)) }
        await #expect(throws: (any Error).self) { try await attempt(reason: "") }
        await #expect(throws: (any Error).self) { try await attempt(paymentId: "pay_missing") }
        // 200 characters (400 UTF-8 bytes) is fine.
        try await attempt(reason: String(repeating: "é", count: 200))
        #expect(try database.store.rowCount(in: "refunds") == 1)
    }

    @Test("refunds racing through two store instances never together exceed the payment")
    func racingRefunds() async throws {
        let database = try await TestDatabase()
        let tills = [database.till(), Till(store: try database.reopen(), taxRate: StorageFixtures.rate875, currency: .usd)]
        let (manager, bill, _) = try await paidBill(database, .card)
        // 1033 paid: ten refunds of 100 fit, then only 33 is left.
        let results = await concurrentResults(16) { index -> Int64 in
            do {
                let outcome = try await tills[index % 2].refund(
                    billId: bill.id, amountMinor: 100, reason: "race \(index)", caller: manager, idempotency: nil
                ).performedWithoutKey()
                return outcome.refund.amountMinor
            } catch POSError.refundExceedsPayment(let refundable) {
                #expect(refundable == 33, "refused with what is left")
                return 0
            }
        }
        let made = try results.map { try $0.get() }.filter { $0 > 0 }
        #expect(made.count == 10)
        let listed = try tills[1].refunds(billId: bill.id, caller: manager)
        #expect(listed.refunds.count == 10 && listed.refundedMinor == 1000 && listed.refundableMinor == 33)
        #expect(try database.store.rowCount(in: "refunds") == 10)
    }
}
