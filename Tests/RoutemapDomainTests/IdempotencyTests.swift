import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

@Suite("Idempotency keys: the answer recorded with the effect, replayed for 24 hours")
struct IdempotencyTests {
    let store = InMemoryStore(menu: Fixtures.menu)
    let clock = TestClock()
    let device = Fixtures.device

    private var till: Till { Till(store: store, taxRate: Fixtures.rate875, currency: .usd, now: clock.function) }

    /// A checked-out bill of `device` holding one latte (total 517).
    private func checkedOutBill(device: String? = nil) throws -> Bill {
        let device = device ?? self.device
        let bill = try till.openBill(device: device)
        _ = try till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        return try till.checkout(billId: bill.id, device: device)
    }

    @Test("open bill: the same key and request replay the recorded answer; one bill")
    func openBillReplay() throws {
        let first = try till.openBill(device: device, idempotency: Keys.bill("k1"))
        let bill = try #require(first.performedValue)
        let recorded = try #require(first.recordedNow)
        #expect(recorded == RecordedResponse(
            deviceId: device, key: "k1", fingerprint: "POST /v1/bills", status: 201, body: Array("bill \(bill.id) v1".utf8),
            location: "/v1/bills/\(bill.id)", createdAt: clock.now))
        #expect(store.snapshot.recordedResponses.values.map { $0 } == [recorded])

        clock.advance(by: 60)
        let second = try till.openBill(device: device, idempotency: Keys.bill("k1"))
        #expect(second.replayed == recorded)
        #expect(store.snapshot.bills.count == 1)
        // Another key is another request.
        #expect(try till.openBill(device: device, idempotency: Keys.bill("k2")).performedValue != nil)
        #expect(store.snapshot.bills.count == 2)
    }

    @Test("pay: the same key pays once; the retry replays the answer, even though the bill is now paid")
    func payReplay() throws {
        let bill = try checkedOutBill()
        let request = PaymentRequest(method: .cash, amountMinor: 517, tenderedMinor: 1_000)
        let key = Keys.payment("pay-1", fingerprint: "POST /v1/bills/\(bill.id)/pay cash 517 1000")
        let first = try till.pay(billId: bill.id, device: device, request, idempotency: key)
        let outcome = try #require(first.performedValue)
        let recorded = try #require(first.recordedNow)
        #expect(recorded.status == 200)
        #expect(recorded.body == Array("payment \(outcome.payment.id) next \(outcome.nextBill.id)".utf8))
        #expect(recorded.location == nil)

        for _ in 0..<3 {
            #expect(try till.pay(billId: bill.id, device: device, request, idempotency: key).replayed == recorded)
        }
        #expect(store.snapshot.payments == [outcome.payment])
        #expect(store.snapshot.bills.count == 2)
        #expect(store.snapshot.bills[bill.id]?.status == .paid)
        // Without the key the same request is a new attempt, refused by the bill's state.
        #expect(throws: POSError.billNotCheckedOut(.paid)) { try till.pay(billId: bill.id, device: device, request) }
    }

    @Test("the same key for a different request is refused, and nothing happens")
    func keyReused() throws {
        let bill = try checkedOutBill()
        _ = try till.openBill(device: device, idempotency: Keys.bill("k1", fingerprint: "first"))
        let before = store.snapshot
        #expect(throws: POSError.idempotencyKeyReused("k1")) {
            try till.openBill(device: device, idempotency: Keys.bill("k1", fingerprint: "second"))
        }
        #expect(throws: POSError.idempotencyKeyReused("k1")) {
            try till.checkout(billId: bill.id, device: device, idempotency: Keys.bill("k1", fingerprint: "checkout"))
        }
        #expect(throws: POSError.idempotencyKeyReused("k1")) {
            try till.pay(
                billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: 517),
                idempotency: Keys.payment("k1", fingerprint: "pay"))
        }
        let after = store.snapshot
        #expect(after.bills == before.bills)
        #expect(after.payments.isEmpty)
        #expect(after.recordedResponses == before.recordedResponses)
    }

    @Test("a state conflict is recorded and replayed, even once the state would allow the request")
    func stateConflictRecorded() throws {
        let empty = try till.openBill(device: device)
        #expect(throws: POSError.billEmpty) {
            try till.checkout(billId: empty.id, device: device, idempotency: Keys.bill("checkout-1"))
        }
        let recorded = try #require(store.snapshot.recordedResponses.values.first)
        #expect(recorded.status == 409)
        #expect(recorded.body == Array("conflict \(POSError.billEmpty)".utf8))

        _ = try till.addItem(billId: empty.id, device: device, menuItemId: "latte", quantity: 1)
        let retry = try till.checkout(billId: empty.id, device: device, idempotency: Keys.bill("checkout-1"))
        #expect(retry.replayed == recorded)
        #expect(store.snapshot.bills[empty.id]?.status == .open, "the replay did not check out")

        // Paying an open bill, and checking out a checked-out one, are state conflicts too.
        let pay = Keys.payment("pay-open", fingerprint: "pay")
        #expect(throws: POSError.billNotCheckedOut(.open)) {
            try till.pay(billId: empty.id, device: device, PaymentRequest(method: .card, amountMinor: 517), idempotency: pay)
        }
        let checkedOut = try till.checkout(billId: empty.id, device: device)
        #expect(
            try till.pay(billId: empty.id, device: device, PaymentRequest(method: .card, amountMinor: 517), idempotency: pay)
                .replayed?.status == 409)
        #expect(throws: POSError.billNotOpen(.checkedOut)) {
            try till.checkout(billId: checkedOut.id, device: device, idempotency: Keys.bill("checkout-2"))
        }
        #expect(store.snapshot.recordedResponses.count == 3)
        #expect(store.snapshot.payments.isEmpty)
    }

    @Test("a refused request's content is not recorded: a corrected retry with the same key goes through")
    func validationNotRecorded() throws {
        let bill = try checkedOutBill()
        let key = "pay-attempt"
        let refusals: [(PaymentRequest, POSError)] = [
            (PaymentRequest(method: .card, amountMinor: 500), .amountMismatch(expectedMinor: 517, receivedMinor: 500)),
            (PaymentRequest(method: .cash, amountMinor: 517, tenderedMinor: 500), .insufficientTender(totalMinor: 517, tenderedMinor: 500)),
            (PaymentRequest(method: .card, amountMinor: 517, tenderedMinor: 600), .tenderNotAllowed),
        ]
        for (index, (request, error)) in refusals.enumerated() {
            #expect(throws: error) {
                try till.pay(billId: bill.id, device: device, request, idempotency: Keys.payment(key, fingerprint: "attempt \(index)"))
            }
        }
        // An unknown bill is not recorded either.
        #expect(throws: POSError.billNotFound("bill_missing")) {
            try till.pay(
                billId: "bill_missing", device: device, PaymentRequest(method: .card, amountMinor: 517),
                idempotency: Keys.payment(key, fingerprint: "missing"))
        }
        #expect(throws: POSError.billNotFound("bill_missing")) {
            try till.checkout(billId: "bill_missing", device: device, idempotency: Keys.bill("checkout-missing"))
        }
        #expect(store.snapshot.recordedResponses.isEmpty)
        #expect(store.snapshot.bills[bill.id] == bill)

        let corrected = try till.pay(
            billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: 517),
            idempotency: Keys.payment(key, fingerprint: "corrected"))
        #expect(corrected.performedValue?.bill.status == .paid)
        #expect(store.snapshot.payments.count == 1)
        // The key refused for an unknown bill is free for the next request (here a state conflict).
        let next = try #require(corrected.performedValue).nextBill
        #expect(throws: POSError.billEmpty) {
            try till.checkout(billId: next.id, device: device, idempotency: Keys.bill("checkout-missing", fingerprint: "next"))
        }
        #expect(store.snapshot.recordedResponses.values.map(\.fingerprint).sorted() == ["corrected", "next"])
    }

    @Test("ownership is checked before the key: another device's bill is not found, whatever the key")
    func ownershipBeforeKey() throws {
        let other = Fixtures.otherDevice
        let bill = try checkedOutBill()
        let request = PaymentRequest(method: .card, amountMinor: 517)
        let fingerprint = "POST /v1/bills/\(bill.id)/pay"
        let recorded = try #require(
            try till.pay(billId: bill.id, device: device, request, idempotency: Keys.payment("k", fingerprint: fingerprint)).recordedNow)

        // The owner's key, the owner's request: still not found for another device, not a replay
        // of the owner's answer, and not "key reused" with another request.
        #expect(throws: POSError.billNotFound(bill.id)) {
            try till.pay(billId: bill.id, device: other, request, idempotency: Keys.payment("k", fingerprint: fingerprint))
        }
        #expect(throws: POSError.billNotFound(bill.id)) {
            try till.pay(billId: bill.id, device: other, request, idempotency: Keys.payment("k", fingerprint: "other"))
        }
        #expect(throws: POSError.billNotFound(bill.id)) {
            try till.checkout(billId: bill.id, device: other, idempotency: Keys.bill("k", fingerprint: fingerprint))
        }
        // Nothing was recorded for the other device; the owner's replay still works.
        #expect(try till.pay(billId: bill.id, device: device, request, idempotency: Keys.payment("k", fingerprint: fingerprint))
            .replayed == recorded)
        #expect(store.snapshot.recordedResponses.count == 1)

        // The other device's own key, used on the owner's bill: not found, rather than "key
        // reused" (another request) or a replay (the same request).
        let theirs = try checkedOutBill(device: other)
        let theirFingerprint = "POST /v1/bills/\(theirs.id)/pay"
        _ = try till.pay(billId: theirs.id, device: other, request, idempotency: Keys.payment("theirs", fingerprint: theirFingerprint))
        let ownersBill = try checkedOutBill()
        for fingerprint in [theirFingerprint, "POST /v1/bills/\(ownersBill.id)/pay"] {
            #expect(throws: POSError.billNotFound(ownersBill.id)) {
                try till.pay(billId: ownersBill.id, device: other, request, idempotency: Keys.payment("theirs", fingerprint: fingerprint))
            }
            #expect(throws: POSError.billNotFound(ownersBill.id)) {
                try till.checkout(billId: ownersBill.id, device: other, idempotency: Keys.bill("theirs", fingerprint: fingerprint))
            }
        }
        #expect(store.snapshot.bills[ownersBill.id]?.status == .checkedOut)
        #expect(store.snapshot.recordedResponses.count == 2)
    }

    @Test("keys are per device: another device's key with the same name is another request")
    func keysPerDevice() throws {
        let other = Fixtures.otherDevice
        let mine = try #require(try till.openBill(device: device, idempotency: Keys.bill("same")).performedValue)
        let theirs = try #require(try till.openBill(device: other, idempotency: Keys.bill("same")).performedValue)
        #expect(mine.id != theirs.id)
        #expect(theirs.deviceId == other)
        #expect(try till.openBill(device: device, idempotency: Keys.bill("same")).replayed?.location == "/v1/bills/\(mine.id)")
        #expect(try till.openBill(device: other, idempotency: Keys.bill("same")).replayed?.location == "/v1/bills/\(theirs.id)")
        #expect(store.snapshot.bills.count == 2)
    }

    @Test("a key is remembered for 24 hours, then forgotten: the request is performed again")
    func expiry() throws {
        let first = try #require(try till.openBill(device: device, idempotency: Keys.bill("k1")).recordedNow)
        _ = try till.openBill(device: device, idempotency: Keys.bill("k-other"))

        clock.advance(by: 24 * 60 * 60 - 0.001)
        #expect(try till.openBill(device: device, idempotency: Keys.bill("k1")).replayed == first)
        #expect(throws: POSError.idempotencyKeyReused("k1")) {
            try till.openBill(device: device, idempotency: Keys.bill("k1", fingerprint: "another request"))
        }
        #expect(store.snapshot.bills.count == 2)

        clock.advance(by: 0.002)
        let again = try till.openBill(device: device, idempotency: Keys.bill("k1", fingerprint: "another request"))
        let newBill = try #require(again.performedValue)
        #expect(newBill.id != first.location?.split(separator: "/").last.map(String.init))
        #expect(again.recordedNow?.createdAt == clock.now.roundedForTest)
        #expect(again.recordedNow?.fingerprint == "another request")
        #expect(store.snapshot.bills.count == 3)
        // The new answer replaced the expired one, and recording it forgot the other expired key.
        #expect(store.snapshot.recordedResponses.values.map(\.key) == ["k1"])
        #expect(try till.openBill(device: device, idempotency: Keys.bill("k1", fingerprint: "another request")).replayed == again.recordedNow)
    }

    @Test("a use case without a key records nothing")
    func noKey() throws {
        let bill = try checkedOutBill()
        _ = try till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: 517))
        #expect(store.snapshot.recordedResponses.isEmpty)
        #expect(try till.openBill(device: device, idempotency: nil).recordedNow == nil)
    }
}

extension Date {
    /// The date to the millisecond, as the till keeps timestamps.
    var roundedForTest: Date { Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded() / 1000) }
}
