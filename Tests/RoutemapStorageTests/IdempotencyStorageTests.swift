import Foundation
import RoutemapDomain
import RoutemapTestSupport
@testable import RoutemapStorage
import Testing

@Suite("Idempotency keys on a real database")
struct IdempotencyStorageTests {
    /// A checked-out bill of `device` holding one latte (total 517).
    private func checkedOutBill(_ till: Till, device: String) async throws -> Bill {
        let bill = try await till.openBill(device: device)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        return try await till.checkout(billId: bill.id, device: device)
    }

    private func counts(_ store: any TestStore) throws -> (bills: Int, payments: Int, keys: Int) {
        (try store.rowCount(in: "bills"), try store.rowCount(in: "payments"), try store.rowCount(in: "idempotency_keys"))
    }

    @Test("the recorded answer's bytes and time replay exactly, also after reopening the file")
    func roundTrip() async throws {
        let database = try await TestDatabase()
        let clock = TestClock(Date(timeIntervalSince1970: 1_732_262_100.123))
        let till = database.till(now: clock.function)
        let body: [UInt8] = [0, 1, 0x7F, 0x80, 0xFF, 0xC3, 0x28] + Array("{\"id\":\"é\"}".utf8)
        let key = Keys.bill("7f0c7c1e-3a1e-4a53-9d38-6b4f4d0c2a10", fingerprint: "POST /v1/bills abc", body: body)
        let first = try await till.openBill(device: database.device, idempotency: key)
        #expect(first.performedValue != nil)
        let recorded = try #require(first.recordedNow)
        #expect(recorded == RecordedAnswer(
            deviceId: database.device, key: key.key, fingerprint: "POST /v1/bills abc", answer: body, createdAt: clock.now))

        clock.advance(by: 5)
        #expect(try await till.openBill(device: database.device, idempotency: key).replayed == recorded)
        let reopened = try database.reopen()
        let tillAfterRestart = Till(store: reopened, taxRate: StorageFixtures.rate875, currency: .usd, now: clock.function)
        #expect(try await tillAfterRestart.openBill(device: database.device, idempotency: key).replayed == recorded)
        #expect(try counts(database.store) == (bills: 1, payments: 0, keys: 1))
    }

    @Test("a transaction reads back what it records; an empty answer stays empty; a record replaces one with the same key")
    func transactionRoundTrip() async throws {
        let database = try await TestDatabase()
        let first = RecordedAnswer(
            deviceId: database.device, key: "k", fingerprint: "f1", answer: [], createdAt: Date(timeIntervalSince1970: 1_700_000_000.5))
        let second = RecordedAnswer(
            deviceId: database.device, key: "k", fingerprint: "f2", answer: [0, 13, 10, 1, 2, 0xFF],
            createdAt: Date(timeIntervalSince1970: 1_800_000_000.25))
        let store = database.store
        let device = database.device
        try await store.write { try $0.record(first) }
        #expect(try await store.write { try $0.recordedAnswer(deviceId: device, key: "k") } == first)
        #expect(try await store.write { try $0.recordedAnswer(deviceId: device, key: "other") } == nil)
        #expect(try await store.write { try $0.recordedAnswer(deviceId: "dev_other", key: "k") } == nil)
        try await store.write { try $0.record(second) }
        #expect(try await store.write { try $0.recordedAnswer(deviceId: device, key: "k") } == second)
        #expect(try database.store.rowCount(in: "idempotency_keys") == 1)
    }

    @Test("an answer can only be recorded for an enrolled device")
    func enrolledDeviceOnly() async throws {
        let database = try await TestDatabase()
        let answer = RecordedAnswer(deviceId: "dev_ghost", key: "k", fingerprint: "f", answer: [1], createdAt: Date())
        let error = await #expect(throws: StorageError.self) { try await database.store.write { try $0.record(answer) } }
        let cause = String(describing: error?.underlyingError)
        #expect(cause.lowercased().contains("foreign key"))
    }

    @Test("pay with a key: one payment and one next bill however often it is sent; each retry replays the answer")
    func payOnce() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let device = database.device
        let bill = try await checkedOutBill(till, device: device)
        let request = PaymentRequest(method: .cash, amountMinor: 517, tenderedMinor: 2_000)
        let key = Keys.payment("pay-1", fingerprint: "POST /v1/bills/\(bill.id)/pay")
        let first = try await till.pay(billId: bill.id, device: device, request, idempotency: key)
        let outcome = try #require(first.performedValue)
        let recorded = try #require(first.recordedNow)
        for _ in 0..<5 {
            #expect(try await till.pay(billId: bill.id, device: device, request, idempotency: key).replayed == recorded)
        }
        #expect(try counts(database.store) == (bills: 2, payments: 1, keys: 1))
        #expect(try database.store.bill(id: bill.id)?.completingPayment == outcome.payment)
        #expect(try await till.currentBill(device: device) == outcome.nextBill)
    }

    @Test("the same key with another request is refused and changes nothing")
    func keyReused() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let device = database.device
        let bill = try await checkedOutBill(till, device: device)
        _ = try await till.openBill(device: device, idempotency: Keys.bill("k", fingerprint: "POST /v1/bills"))
        let before = try counts(database.store)
        await #expect(throws: IdempotencyKeyReused(key: "k")) {
            try await till.pay(
                billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: 517),
                idempotency: Keys.payment("k", fingerprint: "POST /v1/bills/\(bill.id)/pay"))
        }
        await #expect(throws: IdempotencyKeyReused(key: "k")) {
            try await till.openBill(device: device, idempotency: Keys.bill("k", fingerprint: "POST /v1/bills {}"))
        }
        #expect(try counts(database.store) == before)
        #expect(try till.bill(id: bill.id, device: device) == bill)
    }

    @Test("a state conflict is recorded with the key and replayed; nothing else changes")
    func stateConflict() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let device = database.device
        let bill = try await till.openBill(device: device)
        let key = Keys.payment("pay-open", fingerprint: "POST /v1/bills/\(bill.id)/pay")
        let request = PaymentRequest(method: .card, amountMinor: 517)
        await #expect(throws: POSError.billNotCheckedOut(.open)) { try await till.pay(billId: bill.id, device: device, request, idempotency: key) }
        #expect(try counts(database.store) == (bills: 1, payments: 0, keys: 1))

        // Now the bill could be paid, but the key's answer stays the conflict.
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        _ = try await till.checkout(billId: bill.id, device: device)
        let replay = try #require(try await till.pay(billId: bill.id, device: device, request, idempotency: key).replayed)
        #expect(replay.answer == Array("conflict \(POSError.billNotCheckedOut(.open))".utf8))
        #expect(try counts(database.store) == (bills: 1, payments: 0, keys: 1))
        #expect(try till.bill(id: bill.id, device: device).status == .checkedOut)
    }

    @Test("422-type refusals and unknown bills are not recorded: a corrected retry with the same key pays")
    func validationNotRecorded() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let device = database.device
        let bill = try await checkedOutBill(till, device: device)
        await #expect(throws: POSError.amountMismatch(expectedMinor: 517, receivedMinor: 500)) {
            try await till.pay(
                billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: 500),
                idempotency: Keys.payment("k", fingerprint: "amount 500"))
        }
        await #expect(throws: POSError.insufficientTender(chargedMinor: 517, tenderedMinor: 100)) {
            try await till.pay(
                billId: bill.id, device: device, PaymentRequest(method: .cash, amountMinor: 517, tenderedMinor: 100),
                idempotency: Keys.payment("k", fingerprint: "tendered 100"))
        }
        await #expect(throws: POSError.billNotFound("bill_missing")) {
            try await till.pay(
                billId: "bill_missing", device: device, PaymentRequest(method: .card, amountMinor: 517),
                idempotency: Keys.payment("k", fingerprint: "missing"))
        }
        #expect(try counts(database.store) == (bills: 1, payments: 0, keys: 0))

        let corrected = try await till.pay(
            billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: 517),
            idempotency: Keys.payment("k", fingerprint: "amount 517"))
        #expect(corrected.performedValue?.bill.status == .paid)
        #expect(try counts(database.store) == (bills: 2, payments: 1, keys: 1))
    }

    @Test("another device's bill: not found under a fresh key, its own used key is reused; nothing is recorded or changed")
    func anotherDevicesBill() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let owner = database.device
        let other = try await database.enrollDevice()
        let bill = try await checkedOutBill(till, device: owner)
        let request = PaymentRequest(method: .card, amountMinor: 517)
        _ = try await till.openBill(device: other, idempotency: Keys.bill("k", fingerprint: "POST /v1/bills"))
        let before = try counts(database.store)
        await #expect(throws: POSError.billNotFound(bill.id)) {
            try await till.pay(billId: bill.id, device: other, request, idempotency: Keys.payment("fresh", fingerprint: "POST /v1/bills/\(bill.id)/pay"))
        }
        await #expect(throws: IdempotencyKeyReused(key: "k")) {
            try await till.pay(billId: bill.id, device: other, request, idempotency: Keys.payment("k", fingerprint: "POST /v1/bills/\(bill.id)/pay"))
        }
        #expect(try counts(database.store) == before)
        #expect(try till.bill(id: bill.id, device: owner) == bill)
    }

    @Test("the old device's retry of a change made before its bill was transferred replays the answer recorded then")
    func retryAfterTransfer() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let owner = database.device
        let other = try await database.enrollDevice()
        let manager = BillCaller(
            deviceId: try await DeviceDirectory(store: database.store).enroll(name: "Office", role: .manager).device.id, role: .manager)
        let bill = try await till.openBill(device: owner)
        let key = Keys.bill("add", fingerprint: "POST /v1/bills/\(bill.id)/items")
        let recorded = try #require(
            try await till.addItem(billId: bill.id, device: owner, menuItemId: "latte", quantity: 1, idempotency: key).recordedNow)
        _ = try await till.transfer(billId: bill.id, to: other, caller: manager, idempotency: nil)
        let retry = try await till.addItem(billId: bill.id, device: owner, menuItemId: "latte", quantity: 1, idempotency: key)
        #expect(retry.replayed == recorded)
        #expect(try till.bill(id: bill.id, device: other).lines.map(\.quantity) == [1])
    }

    @Test("keys expire after 24 hours: the request is performed again, and expired keys are deleted")
    func expiry() async throws {
        let database = try await TestDatabase()
        let clock = TestClock()
        let till = database.till(now: clock.function)
        let device = database.device
        let first = try #require(try await till.openBill(device: device, idempotency: Keys.bill("k1")).recordedNow)
        _ = try await till.openBill(device: device, idempotency: Keys.bill("k2"))
        #expect(try counts(database.store) == (bills: 2, payments: 0, keys: 2))

        clock.advance(by: 24 * 60 * 60 - 0.001)
        #expect(try await till.openBill(device: device, idempotency: Keys.bill("k1")).replayed == first)
        #expect(try database.store.rowCount(in: "bills") == 2)

        clock.advance(by: 0.002)
        let again = try await till.openBill(device: device, idempotency: Keys.bill("k1", fingerprint: "POST /v1/bills {}"))
        let newBill = try #require(again.performedValue)
        let recorded = try #require(again.recordedNow)
        #expect(recorded.answer == Array("bill \(newBill.id) v1".utf8))
        #expect(recorded.answer != first.answer)
        // k2 expired too, and stays until the sweep deletes it.
        #expect(try counts(database.store) == (bills: 3, payments: 0, keys: 2))
        try await till.deleteExpiredIdempotencyRecords()
        #expect(try counts(database.store) == (bills: 3, payments: 0, keys: 1))
        #expect(try await database.store.write { try $0.recordedAnswer(deviceId: device, key: "k1") } == recorded)
        #expect(try await database.store.write { try $0.recordedAnswer(deviceId: device, key: "k2") } == nil)
    }

    @Test("the answer is recorded in the effect's transaction: a failed payment records no answer")
    func recordedWithEffect() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let device = database.device
        let bill = try await checkedOutBill(till, device: device)
        let request = PaymentRequest(method: .card, amountMinor: 517)
        let key = Keys.payment("k", fingerprint: "pay")
        let failing = Till(
            store: FailingPaymentStore(base: database.store, failure: .afterInsert), taxRate: StorageFixtures.rate875, currency: .usd)
        await #expect(throws: FailingPaymentStore.InjectedFailure()) { try await failing.pay(billId: bill.id, device: device, request, idempotency: key) }
        #expect(try counts(database.store) == (bills: 1, payments: 0, keys: 0))

        // Recording the answer fails: the payment is rolled back with it.
        struct CannotRecord: Error, Equatable {}
        let unrecordable = IdempotencyKey<PaymentOutcome>(key: "k", fingerprint: "pay") { _ in throw CannotRecord() }
        await #expect(throws: CannotRecord()) { try await till.pay(billId: bill.id, device: device, request, idempotency: unrecordable) }
        #expect(try counts(database.store) == (bills: 1, payments: 0, keys: 0))
        #expect(try till.bill(id: bill.id, device: device) == bill)

        // The key was never used: the real attempt pays.
        #expect(try await till.pay(billId: bill.id, device: device, request, idempotency: key).performedValue != nil)
        #expect(try counts(database.store) == (bills: 2, payments: 1, keys: 1))
    }
}
