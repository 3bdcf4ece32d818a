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
    private func checkedOutBill(device: String? = nil) async throws -> Bill {
        let device = device ?? self.device
        let bill = try await till.openBill(device: device)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        return try await till.checkout(billId: bill.id, device: device)
    }

    @Test("open bill: the same key and request replay the recorded answer; one bill")
    func openBillReplay() async throws {
        let first = try await till.openBill(device: device, idempotency: Keys.bill("k1"))
        let bill = try #require(first.performedValue)
        let recorded = try #require(first.recordedNow)
        #expect(recorded == RecordedAnswer(
            deviceId: device, key: "k1", fingerprint: "POST /v1/bills", answer: Array("bill \(bill.id) v1".utf8), createdAt: clock.now))
        #expect(store.snapshot.recordedAnswers.values.map { $0 } == [recorded])

        clock.advance(by: 60)
        let second = try await till.openBill(device: device, idempotency: Keys.bill("k1"))
        #expect(second.replayed == recorded)
        #expect(store.snapshot.bills.count == 1)
        // Another key is another request.
        #expect(try await till.openBill(device: device, idempotency: Keys.bill("k2")).performedValue != nil)
        #expect(store.snapshot.bills.count == 2)
    }

    @Test("pay: the same key pays once; the retry replays the answer, even though the bill is now paid")
    func payReplay() async throws {
        let bill = try await checkedOutBill()
        let request = PaymentRequest(method: .cash, amountMinor: 517, tenderedMinor: 1_000)
        let key = Keys.payment("pay-1", fingerprint: "POST /v1/bills/\(bill.id)/pay cash 517 1000")
        let first = try await till.pay(billId: bill.id, device: device, request, idempotency: key)
        let outcome = try #require(first.performedValue)
        let recorded = try #require(first.recordedNow)
        #expect(recorded.answer == Array("payment \(outcome.payment.id) next \(outcome.nextBill.id)".utf8))

        for _ in 0..<3 {
            #expect(try await till.pay(billId: bill.id, device: device, request, idempotency: key).replayed == recorded)
        }
        #expect(store.snapshot.payments == [outcome.payment])
        #expect(store.snapshot.bills.count == 2)
        #expect(store.snapshot.bills[bill.id]?.status == .paid)
        // Without the key the same request is a new attempt, refused by the bill's state.
        await #expect(throws: POSError.billNotCheckedOut(.paid)) { try await till.pay(billId: bill.id, device: device, request) }
    }

    @Test("the same key for a different request is refused, and nothing happens")
    func keyReused() async throws {
        let bill = try await checkedOutBill()
        _ = try await till.openBill(device: device, idempotency: Keys.bill("k1", fingerprint: "first"))
        let before = store.snapshot
        await #expect(throws: IdempotencyKeyReused(key: "k1")) {
            try await till.openBill(device: device, idempotency: Keys.bill("k1", fingerprint: "second"))
        }
        await #expect(throws: IdempotencyKeyReused(key: "k1")) {
            try await till.checkout(billId: bill.id, device: device, idempotency: Keys.bill("k1", fingerprint: "checkout"))
        }
        await #expect(throws: IdempotencyKeyReused(key: "k1")) {
            try await till.pay(
                billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: 517),
                idempotency: Keys.payment("k1", fingerprint: "pay"))
        }
        let after = store.snapshot
        #expect(after.bills == before.bills)
        #expect(after.payments.isEmpty)
        #expect(after.recordedAnswers == before.recordedAnswers)
    }

    @Test("a state conflict is recorded and replayed, even once the state would allow the request")
    func stateConflictRecorded() async throws {
        let empty = try await till.openBill(device: device)
        await #expect(throws: POSError.billEmpty) {
            try await till.checkout(billId: empty.id, device: device, idempotency: Keys.bill("checkout-1"))
        }
        let recorded = try #require(store.snapshot.recordedAnswers.values.first)
        #expect(recorded.answer == Array("conflict \(POSError.billEmpty)".utf8))

        _ = try await till.addItem(billId: empty.id, device: device, menuItemId: "latte", quantity: 1)
        let retry = try await till.checkout(billId: empty.id, device: device, idempotency: Keys.bill("checkout-1"))
        #expect(retry.replayed == recorded)
        #expect(store.snapshot.bills[empty.id]?.status == .open, "the replay did not check out")

        // Paying an open bill, and checking out a checked-out one, are state conflicts too.
        let pay = Keys.payment("pay-open", fingerprint: "pay")
        await #expect(throws: POSError.billNotCheckedOut(.open)) {
            try await till.pay(billId: empty.id, device: device, PaymentRequest(method: .card, amountMinor: 517), idempotency: pay)
        }
        let checkedOut = try await till.checkout(billId: empty.id, device: device)
        #expect(
            try await till.pay(billId: empty.id, device: device, PaymentRequest(method: .card, amountMinor: 517), idempotency: pay)
                .replayed?.answer == Array("conflict \(POSError.billNotCheckedOut(.open))".utf8))
        await #expect(throws: POSError.billNotOpen(.checkedOut)) {
            try await till.checkout(billId: checkedOut.id, device: device, idempotency: Keys.bill("checkout-2"))
        }
        #expect(store.snapshot.recordedAnswers.count == 3)
        #expect(store.snapshot.payments.isEmpty)
    }

    @Test("raising a line of an unavailable item under a key is not recorded, as adding it is not: the retry goes through once it is back")
    func unavailableRaiseNotRecorded() async throws {
        let bill = try await till.openBill(device: device)
        let line = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1).lines[0]
        _ = try await till.changeMenuItem(id: "latte", MenuItemPatch(available: false), device: device, idempotency: nil)
        await #expect(throws: POSError.menuItemUnavailable("latte")) {
            try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1, idempotency: Keys.bill("add"))
        }
        await #expect(throws: POSError.menuItemUnavailable("latte")) {
            try await till.setQuantity(billId: bill.id, device: device, lineId: line.lineId, quantity: 2, idempotency: Keys.bill("raise"))
        }
        #expect(store.snapshot.recordedAnswers.isEmpty)

        _ = try await till.changeMenuItem(id: "latte", MenuItemPatch(available: true), device: device, idempotency: nil)
        let raised = try await till.setQuantity(billId: bill.id, device: device, lineId: line.lineId, quantity: 2, idempotency: Keys.bill("raise"))
        #expect(raised.performedValue?.lines.map(\.quantity) == [2])
    }

    @Test("a refused request's content is not recorded: a corrected retry with the same key goes through")
    func validationNotRecorded() async throws {
        let bill = try await checkedOutBill()
        let key = "pay-attempt"
        let refusals: [(PaymentRequest, POSError)] = [
            (PaymentRequest(method: .card, amountMinor: 500), .amountMismatch(expectedMinor: 517, receivedMinor: 500)),
            (PaymentRequest(method: .cash, amountMinor: 517, tenderedMinor: 500), .insufficientTender(chargedMinor: 517, tenderedMinor: 500)),
            (PaymentRequest(method: .card, amountMinor: 517, tenderedMinor: 600), .tenderNotAllowed),
        ]
        for (index, (request, error)) in refusals.enumerated() {
            await #expect(throws: error) {
                try await till.pay(billId: bill.id, device: device, request, idempotency: Keys.payment(key, fingerprint: "attempt \(index)"))
            }
        }
        // An unknown bill is not recorded either.
        await #expect(throws: POSError.billNotFound("bill_missing")) {
            try await till.pay(
                billId: "bill_missing", device: device, PaymentRequest(method: .card, amountMinor: 517),
                idempotency: Keys.payment(key, fingerprint: "missing"))
        }
        await #expect(throws: POSError.billNotFound("bill_missing")) {
            try await till.checkout(billId: "bill_missing", device: device, idempotency: Keys.bill("checkout-missing"))
        }
        #expect(store.snapshot.recordedAnswers.isEmpty)
        #expect(store.snapshot.bills[bill.id] == bill)

        let corrected = try await till.pay(
            billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: 517),
            idempotency: Keys.payment(key, fingerprint: "corrected"))
        #expect(corrected.performedValue?.bill.status == .paid)
        #expect(store.snapshot.payments.count == 1)
        // The key refused for an unknown bill is free for the next request (here a state conflict).
        let next = try #require(corrected.performedValue).nextBill
        await #expect(throws: POSError.billEmpty) {
            try await till.checkout(billId: next.id, device: device, idempotency: Keys.bill("checkout-missing", fingerprint: "next"))
        }
        #expect(store.snapshot.recordedAnswers.values.map(\.fingerprint).sorted() == ["corrected", "next"])
    }

    @Test("a key answers only for its own device: another device's bill is not found under its keys, or its key is reused; nothing is recorded")
    func anotherDevicesBill() async throws {
        let other = Fixtures.otherDevice
        let bill = try await checkedOutBill()
        let request = PaymentRequest(method: .card, amountMinor: 517)
        let fingerprint = "POST /v1/bills/\(bill.id)/pay"
        let recorded = try #require(
            try await till.pay(billId: bill.id, device: device, request, idempotency: Keys.payment("k", fingerprint: fingerprint)).recordedNow)

        // The owner's key, the owner's request, from another device: keys are per device, so it
        // is that device's new request, and the bill is not found for it; no replay of the
        // owner's answer.
        await #expect(throws: POSError.billNotFound(bill.id)) {
            try await till.pay(billId: bill.id, device: other, request, idempotency: Keys.payment("k", fingerprint: fingerprint))
        }
        await #expect(throws: POSError.billNotFound(bill.id)) {
            try await till.checkout(billId: bill.id, device: other, idempotency: Keys.bill("k", fingerprint: "POST /v1/bills/\(bill.id)/checkout"))
        }
        // Nothing was recorded for the other device; the owner's replay still works.
        #expect(try await till.pay(billId: bill.id, device: device, request, idempotency: Keys.payment("k", fingerprint: fingerprint))
            .replayed == recorded)
        #expect(store.snapshot.recordedAnswers.count == 1)

        // The other device's own key, used before for its own bill, sent with the owner's bill:
        // another request under a used key, refused as such; the owner's bill is neither read
        // nor changed, so the answer says nothing of it (the same for a bill that does not exist).
        let theirs = try await checkedOutBill(device: other)
        _ = try await till.pay(
            billId: theirs.id, device: other, request, idempotency: Keys.payment("theirs", fingerprint: "POST /v1/bills/\(theirs.id)/pay"))
        let ownersBill = try await checkedOutBill()
        for billId in [ownersBill.id, "bill_missing"] {
            await #expect(throws: IdempotencyKeyReused(key: "theirs")) {
                try await till.pay(billId: billId, device: other, request, idempotency: Keys.payment("theirs", fingerprint: "POST /v1/bills/\(billId)/pay"))
            }
        }
        #expect(store.snapshot.bills[ownersBill.id]?.status == .checkedOut)
        #expect(store.snapshot.recordedAnswers.count == 2)
    }

    @Test("keys are per device: another device's key with the same name is another request")
    func keysPerDevice() async throws {
        let other = Fixtures.otherDevice
        let mine = try #require(try await till.openBill(device: device, idempotency: Keys.bill("same")).performedValue)
        let theirs = try #require(try await till.openBill(device: other, idempotency: Keys.bill("same")).performedValue)
        #expect(mine.id != theirs.id)
        #expect(theirs.deviceId == other)
        #expect(try await till.openBill(device: device, idempotency: Keys.bill("same")).replayed?.answer == Array("bill \(mine.id) v1".utf8))
        #expect(try await till.openBill(device: other, idempotency: Keys.bill("same")).replayed?.answer == Array("bill \(theirs.id) v1".utf8))
        #expect(store.snapshot.bills.count == 2)
    }

    @Test("a key is remembered for 24 hours, then forgotten: the request is performed again")
    func expiry() async throws {
        let firstOutcome = try await till.openBill(device: device, idempotency: Keys.bill("k1"))
        let firstBill = try #require(firstOutcome.performedValue)
        let first = try #require(firstOutcome.recordedNow)
        #expect(first.answer == Array("bill \(firstBill.id) v1".utf8))
        _ = try await till.openBill(device: device, idempotency: Keys.bill("k-other"))

        clock.advance(by: 24 * 60 * 60 - 0.001)
        #expect(try await till.openBill(device: device, idempotency: Keys.bill("k1")).replayed == first)
        await #expect(throws: IdempotencyKeyReused(key: "k1")) {
            try await till.openBill(device: device, idempotency: Keys.bill("k1", fingerprint: "another request"))
        }
        #expect(store.snapshot.bills.count == 2)

        clock.advance(by: 0.002)
        let again = try await till.openBill(device: device, idempotency: Keys.bill("k1", fingerprint: "another request"))
        let newBill = try #require(again.performedValue)
        #expect(newBill.id != firstBill.id)
        #expect(again.recordedNow?.answer == Array("bill \(newBill.id) v1".utf8))
        #expect(again.recordedNow?.createdAt == clock.now.roundedForTest)
        #expect(again.recordedNow?.fingerprint == "another request")
        #expect(store.snapshot.bills.count == 3)
        // The new answer replaced the expired one; the other expired key stays until the sweep.
        #expect(Set(store.snapshot.recordedAnswers.values.map(\.key)) == ["k1", "k-other"])
        try await till.deleteExpiredIdempotencyRecords()
        #expect(store.snapshot.recordedAnswers.values.map(\.key) == ["k1"])
        #expect(try await till.openBill(device: device, idempotency: Keys.bill("k1", fingerprint: "another request")).replayed == again.recordedNow)
    }

    @Test("a use case without a key records nothing")
    func noKey() async throws {
        let bill = try await checkedOutBill()
        _ = try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: 517))
        #expect(store.snapshot.recordedAnswers.isEmpty)
        #expect(try await till.openBill(device: device, idempotency: nil).recordedNow == nil)
    }
}

extension Date {
    /// The date to the millisecond, as the till keeps timestamps.
    var roundedForTest: Date { Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded() / 1000) }
}
