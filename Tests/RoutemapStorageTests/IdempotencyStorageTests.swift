import Foundation
import RoutemapDomain
import RoutemapTestSupport
@testable import RoutemapStorage
import Testing

@Suite("Idempotency keys on a real SQLite file")
struct IdempotencyStorageTests {
    /// A checked-out bill of `device` holding one latte (total 517).
    private func checkedOutBill(_ till: Till, device: String) throws -> Bill {
        let bill = try till.openBill(device: device)
        _ = try till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        return try till.checkout(billId: bill.id, device: device)
    }

    private func counts(_ store: SQLiteStore) throws -> (bills: Int, payments: Int, keys: Int) {
        (try store.rowCount(in: "bills"), try store.rowCount(in: "payments"), try store.rowCount(in: "idempotency_keys"))
    }

    @Test("the recorded answer's bytes, status, location and time replay exactly, also after reopening the file")
    func roundTrip() throws {
        let database = try TestDatabase()
        let clock = TestClock(Date(timeIntervalSince1970: 1_732_262_100.123))
        let till = database.till(now: clock.function)
        let body: [UInt8] = [0, 1, 0x7F, 0x80, 0xFF, 0xC3, 0x28] + Array("{\"id\":\"é\"}".utf8)
        let key = Keys.bill("7f0c7c1e-3a1e-4a53-9d38-6b4f4d0c2a10", fingerprint: "POST /v1/bills abc", body: body)
        let first = try till.openBill(device: database.device, idempotency: key)
        let bill = try #require(first.performedValue)
        let recorded = try #require(first.recordedNow)
        #expect(recorded == RecordedResponse(
            deviceId: database.device, key: key.key, fingerprint: "POST /v1/bills abc", status: 201, body: body,
            location: "/v1/bills/\(bill.id)", createdAt: clock.now))

        clock.advance(by: 5)
        #expect(try till.openBill(device: database.device, idempotency: key).replayed == recorded)
        let reopened = try SQLiteStore(path: database.path, migrations: try StorageFixtures.migrations())
        let tillAfterRestart = Till(store: reopened, taxRate: StorageFixtures.rate875, currency: .usd, now: clock.function)
        #expect(try tillAfterRestart.openBill(device: database.device, idempotency: key).replayed == recorded)
        #expect(try counts(database.store) == (bills: 1, payments: 0, keys: 1))
    }

    @Test("a transaction reads back what it records; a nil location stays nil; a record replaces one with the same key")
    func transactionRoundTrip() throws {
        let database = try TestDatabase()
        let first = RecordedResponse(
            deviceId: database.device, key: "k", fingerprint: "f1", status: 409, body: [], location: nil,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000.5))
        let second = RecordedResponse(
            deviceId: database.device, key: "k", fingerprint: "f2", status: 200, body: [1, 2, 3], location: "/x",
            createdAt: Date(timeIntervalSince1970: 1_800_000_000.25))
        try database.store.write { try $0.record(first) }
        #expect(try database.store.write { try $0.recordedResponse(deviceId: database.device, key: "k") } == first)
        #expect(try database.store.write { try $0.recordedResponse(deviceId: database.device, key: "other") } == nil)
        #expect(try database.store.write { try $0.recordedResponse(deviceId: "dev_other", key: "k") } == nil)
        try database.store.write { try $0.record(second) }
        #expect(try database.store.write { try $0.recordedResponse(deviceId: database.device, key: "k") } == second)
        #expect(try database.store.rowCount(in: "idempotency_keys") == 1)
    }

    @Test("an answer can only be recorded for an enrolled device")
    func enrolledDeviceOnly() throws {
        let database = try TestDatabase()
        let response = RecordedResponse(
            deviceId: "dev_ghost", key: "k", fingerprint: "f", status: 201, body: [], location: nil, createdAt: Date())
        let error = #expect(throws: StorageError.self) { try database.store.write { try $0.record(response) } }
        let cause = String(describing: error?.underlyingError)
        #expect(cause.contains("FOREIGN KEY"))
    }

    @Test("pay with a key: one payment and one next bill however often it is sent; each retry replays the answer")
    func payOnce() throws {
        let database = try TestDatabase()
        let till = database.till()
        let device = database.device
        let bill = try checkedOutBill(till, device: device)
        let request = PaymentRequest(method: .cash, amountMinor: 517, tenderedMinor: 2_000)
        let key = Keys.payment("pay-1", fingerprint: "POST /v1/bills/\(bill.id)/pay")
        let first = try till.pay(billId: bill.id, device: device, request, idempotency: key)
        let outcome = try #require(first.performedValue)
        let recorded = try #require(first.recordedNow)
        for _ in 0..<5 {
            #expect(try till.pay(billId: bill.id, device: device, request, idempotency: key).replayed == recorded)
        }
        #expect(try counts(database.store) == (bills: 2, payments: 1, keys: 1))
        #expect(try database.store.payment(billId: bill.id) == outcome.payment)
        #expect(try till.currentBill(device: device) == outcome.nextBill)
    }

    @Test("the same key with another request is refused and changes nothing")
    func keyReused() throws {
        let database = try TestDatabase()
        let till = database.till()
        let device = database.device
        let bill = try checkedOutBill(till, device: device)
        _ = try till.openBill(device: device, idempotency: Keys.bill("k", fingerprint: "POST /v1/bills"))
        let before = try counts(database.store)
        #expect(throws: POSError.idempotencyKeyReused("k")) {
            try till.pay(
                billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: 517),
                idempotency: Keys.payment("k", fingerprint: "POST /v1/bills/\(bill.id)/pay"))
        }
        #expect(throws: POSError.idempotencyKeyReused("k")) {
            try till.openBill(device: device, idempotency: Keys.bill("k", fingerprint: "POST /v1/bills {}"))
        }
        #expect(try counts(database.store) == before)
        #expect(try till.bill(id: bill.id, device: device) == bill)
    }

    @Test("a state conflict is recorded with the key and replayed; nothing else changes")
    func stateConflict() throws {
        let database = try TestDatabase()
        let till = database.till()
        let device = database.device
        let bill = try till.openBill(device: device)
        let key = Keys.payment("pay-open", fingerprint: "POST /v1/bills/\(bill.id)/pay")
        let request = PaymentRequest(method: .card, amountMinor: 517)
        #expect(throws: POSError.billNotCheckedOut(.open)) { try till.pay(billId: bill.id, device: device, request, idempotency: key) }
        #expect(try counts(database.store) == (bills: 1, payments: 0, keys: 1))

        // Now the bill could be paid, but the key's answer stays the conflict.
        _ = try till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        _ = try till.checkout(billId: bill.id, device: device)
        let replay = try #require(try till.pay(billId: bill.id, device: device, request, idempotency: key).replayed)
        #expect(replay.status == 409)
        #expect(replay.body == Array("conflict \(POSError.billNotCheckedOut(.open))".utf8))
        #expect(try counts(database.store) == (bills: 1, payments: 0, keys: 1))
        #expect(try till.bill(id: bill.id, device: device).status == .checkedOut)
    }

    @Test("422-type refusals and unknown bills are not recorded: a corrected retry with the same key pays")
    func validationNotRecorded() throws {
        let database = try TestDatabase()
        let till = database.till()
        let device = database.device
        let bill = try checkedOutBill(till, device: device)
        #expect(throws: POSError.amountMismatch(expectedMinor: 517, receivedMinor: 500)) {
            try till.pay(
                billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: 500),
                idempotency: Keys.payment("k", fingerprint: "amount 500"))
        }
        #expect(throws: POSError.insufficientTender(totalMinor: 517, tenderedMinor: 100)) {
            try till.pay(
                billId: bill.id, device: device, PaymentRequest(method: .cash, amountMinor: 517, tenderedMinor: 100),
                idempotency: Keys.payment("k", fingerprint: "tendered 100"))
        }
        #expect(throws: POSError.billNotFound("bill_missing")) {
            try till.pay(
                billId: "bill_missing", device: device, PaymentRequest(method: .card, amountMinor: 517),
                idempotency: Keys.payment("k", fingerprint: "missing"))
        }
        #expect(try counts(database.store) == (bills: 1, payments: 0, keys: 0))

        let corrected = try till.pay(
            billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: 517),
            idempotency: Keys.payment("k", fingerprint: "amount 517"))
        #expect(corrected.performedValue?.bill.status == .paid)
        #expect(try counts(database.store) == (bills: 2, payments: 1, keys: 1))
    }

    @Test("ownership before the key: another device's bill is not found, and nothing is recorded for it")
    func ownershipFirst() throws {
        let database = try TestDatabase()
        let till = database.till()
        let owner = database.device
        let other = try database.enrollDevice()
        let bill = try checkedOutBill(till, device: owner)
        let request = PaymentRequest(method: .card, amountMinor: 517)
        let fingerprint = "POST /v1/bills/\(bill.id)/pay"
        _ = try till.openBill(device: other, idempotency: Keys.bill("k", fingerprint: fingerprint))
        let before = try counts(database.store)
        #expect(throws: POSError.billNotFound(bill.id)) {
            try till.pay(billId: bill.id, device: other, request, idempotency: Keys.payment("k", fingerprint: fingerprint))
        }
        #expect(throws: POSError.billNotFound(bill.id)) {
            try till.pay(billId: bill.id, device: other, request, idempotency: Keys.payment("k", fingerprint: "another"))
        }
        #expect(throws: POSError.billNotFound(bill.id)) {
            try till.pay(billId: bill.id, device: other, request, idempotency: Keys.payment("fresh", fingerprint: fingerprint))
        }
        #expect(try counts(database.store) == before)
        #expect(try till.bill(id: bill.id, device: owner) == bill)
    }

    @Test("keys expire after 24 hours: the request is performed again, and expired keys are deleted")
    func expiry() throws {
        let database = try TestDatabase()
        let clock = TestClock()
        let till = database.till(now: clock.function)
        let device = database.device
        let first = try #require(try till.openBill(device: device, idempotency: Keys.bill("k1")).recordedNow)
        _ = try till.openBill(device: device, idempotency: Keys.bill("k2"))
        #expect(try counts(database.store) == (bills: 2, payments: 0, keys: 2))

        clock.advance(by: 24 * 60 * 60 - 0.001)
        #expect(try till.openBill(device: device, idempotency: Keys.bill("k1")).replayed == first)
        #expect(try database.store.rowCount(in: "bills") == 2)

        clock.advance(by: 0.002)
        let again = try till.openBill(device: device, idempotency: Keys.bill("k1", fingerprint: "POST /v1/bills {}"))
        let recorded = try #require(again.recordedNow)
        #expect(recorded.location != first.location)
        #expect(try counts(database.store) == (bills: 3, payments: 0, keys: 1))
        #expect(try database.store.write { try $0.recordedResponse(deviceId: device, key: "k1") } == recorded)
        #expect(try database.store.write { try $0.recordedResponse(deviceId: device, key: "k2") } == nil)
    }

    @Test("the answer is recorded in the effect's transaction: a failed payment records no answer")
    func recordedWithEffect() throws {
        let database = try TestDatabase()
        let till = database.till()
        let device = database.device
        let bill = try checkedOutBill(till, device: device)
        let request = PaymentRequest(method: .card, amountMinor: 517)
        let key = Keys.payment("k", fingerprint: "pay")
        let failing = Till(
            store: FailingPaymentStore(base: database.store, failure: .afterInsert), taxRate: StorageFixtures.rate875, currency: .usd)
        #expect(throws: FailingPaymentStore.InjectedFailure()) { try failing.pay(billId: bill.id, device: device, request, idempotency: key) }
        #expect(try counts(database.store) == (bills: 1, payments: 0, keys: 0))

        // Recording the answer fails: the payment is rolled back with it.
        struct CannotRecord: Error, Equatable {}
        let unrecordable = IdempotencyKey<PaymentOutcome>(key: "k", fingerprint: "pay") { _ in throw CannotRecord() }
        #expect(throws: CannotRecord()) { try till.pay(billId: bill.id, device: device, request, idempotency: unrecordable) }
        #expect(try counts(database.store) == (bills: 1, payments: 0, keys: 0))
        #expect(try till.bill(id: bill.id, device: device) == bill)

        // The key was never used: the real attempt pays.
        #expect(try till.pay(billId: bill.id, device: device, request, idempotency: key).performedValue != nil)
        #expect(try counts(database.store) == (bills: 2, payments: 1, keys: 1))
    }
}
