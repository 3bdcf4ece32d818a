import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

@Suite("Refunds: a manager gives money back on a paid bill, at most its payment")
struct RefundTests {
    let store = InMemoryStore(menu: Fixtures.menu)
    let clock = TestClock()
    let manager = BillCaller(deviceId: "dev_M", role: .manager)

    private var till: Till { Till(store: store, taxRate: Fixtures.rate875, currency: .usd, now: clock.function) }

    /// A bill of `device` holding two lattes (950 + 83 = 1033), paid by `method`.
    private func paidBill(_ method: PaymentMethod = .card, device: String = Fixtures.device) async throws -> (Bill, Payment) {
        let bill = try await till.addItem(billId: try await till.openBill(device: device).id, device: device, menuItemId: "latte", quantity: 2)
        _ = try await till.checkout(billId: bill.id, device: device)
        let paid = try await till.pay(
            billId: bill.id, device: device, PaymentRequest(method: method, amountMinor: bill.totalMinor, tenderedMinor: method == .cash ? 2000 : nil))
        return (paid.bill, paid.payment)
    }

    private func refund(_ billId: String, _ amount: Int64, caller: BillCaller? = nil, key: IdempotencyKey<RefundOutcome>? = nil) async throws
        -> IdempotentOutcome<RefundOutcome>
    {
        try await till.refund(billId: billId, amountMinor: amount, reason: "Cold coffee", caller: caller ?? manager, idempotency: key)
    }

    @Test("partial refunds up to the payment, by its method, committed with full durability; the bill does not change; then nothing more")
    func partialRefunds() async throws {
        let (bill, payment) = try await paidBill(.cash, device: Fixtures.otherDevice)
        #expect(payment.amountMinor == 1033)
        let none = try till.refunds(billId: bill.id, caller: manager)
        #expect(none.refunds.isEmpty && none.refundedMinor == 0 && none.refundableMinor == 1033)
        let durabilities = store.snapshot.committedDurabilities.count

        clock.advance(by: 1)
        let first = try #require(try await refund(bill.id, 400).performedValue)
        #expect(first.refund.billId == bill.id && first.refund.paymentId == payment.id && first.refund.method == .cash)
        #expect(first.refund.amountMinor == 400 && first.refund.reason == "Cold coffee" && first.refund.deviceId == manager.deviceId)
        #expect(first.refund.id.hasPrefix("ref_") && first.refund.createdAt == clock.now.roundedToMilliseconds)
        #expect(first.refundedMinor == 400 && first.refundableMinor == 633)
        clock.advance(by: 1)
        let second = try #require(try await refund(bill.id, 633).performedValue)
        #expect(second.refundedMinor == 1033 && second.refundableMinor == 0)
        #expect(Array(store.snapshot.committedDurabilities.dropFirst(durabilities)) == [.full, .full])

        await #expect(throws: POSError.refundExceedsPayment(refundableMinor: 0)) { try await refund(bill.id, 1) }
        let listed = try till.refunds(billId: bill.id, caller: manager)
        #expect(listed.refunds == [first.refund, second.refund])
        #expect(listed.refundedMinor == 1033 && listed.refundableMinor == 0)
        // The bill stays as it was paid.
        #expect(try till.bill(id: bill.id, caller: manager) == bill)
        #expect(store.snapshot.refunds.count == 2)
    }

    @Test("over what is left: refused with what is left, recorded under the key and replayed; a refund under a key is made once")
    func overRefundRecorded() async throws {
        let (bill, _) = try await paidBill()
        let fingerprint = "POST /v1/bills/\(bill.id)/refund"
        let key = Keys.refund("r1", fingerprint: fingerprint + " 1000")
        let made = try await refund(bill.id, 1000, key: key)
        let recorded = try #require(made.recordedNow)
        #expect(recorded.deviceId == manager.deviceId)
        #expect(try await refund(bill.id, 1000, key: key).replayed == recorded)
        #expect(store.snapshot.refunds.count == 1)

        let over = Keys.refund("r2", fingerprint: fingerprint + " 34")
        await #expect(throws: POSError.refundExceedsPayment(refundableMinor: 33)) { try await refund(bill.id, 34, key: over) }
        let refusal = try #require(store.snapshot.recordedAnswers.values.first { $0.deviceId == manager.deviceId && $0.key == "r2" })
        #expect(refusal.answer == Array("conflict \(POSError.refundExceedsPayment(refundableMinor: 33))".utf8))
        // What is left changes (a refund of 33 under another key), the retry still gets the refusal.
        _ = try await refund(bill.id, 33)
        #expect(try await refund(bill.id, 34, key: over).replayed == refusal)
        #expect(store.snapshot.refunds.map(\.amountMinor) == [1000, 33])
    }

    @Test("a bill that is not paid: billNotPaid with its status, recorded under the key; it lists no refund and nothing refundable")
    func unpaidRefused() async throws {
        let open = try await till.addItem(billId: try await till.openBill(device: Fixtures.device).id, device: Fixtures.device, menuItemId: "latte", quantity: 1)
        await #expect(throws: POSError.billNotPaid(.open)) { try await refund(open.id, 1) }
        _ = try await till.checkout(billId: open.id, device: Fixtures.device)
        let key = Keys.refund("u1", fingerprint: "POST /v1/bills/\(open.id)/refund")
        await #expect(throws: POSError.billNotPaid(.checkedOut)) { try await refund(open.id, 1, key: key) }
        #expect(store.snapshot.recordedAnswers.values.contains { $0.key == "u1" && $0.answer == Array("conflict \(POSError.billNotPaid(.checkedOut))".utf8) })
        _ = try await till.void(billId: open.id, caller: manager, reason: "left", idempotency: nil)
        await #expect(throws: POSError.billNotPaid(.voided)) { try await refund(open.id, 1) }
        let listed = try till.refunds(billId: open.id, caller: manager)
        #expect(listed.refunds.isEmpty && listed.refundedMinor == 0 && listed.refundableMinor == 0)
        await #expect(throws: POSError.billNotFound("bill_missing")) { try await refund("bill_missing", 1) }
        #expect(throws: POSError.billNotFound("bill_missing")) { try till.refunds(billId: "bill_missing", caller: manager) }
        #expect(store.snapshot.refunds.isEmpty)
    }

    @Test("a till may not refund nor list refunds, not even of its own bill")
    func tillRefused() async throws {
        let (bill, _) = try await paidBill()
        let before = store.snapshot
        await #expect(throws: POSError.managerOnly) { try await refund(bill.id, 1, caller: .till(Fixtures.device)) }
        #expect(throws: POSError.managerOnly) { try till.refunds(billId: bill.id, caller: .till(Fixtures.device)) }
        #expect(store.snapshot.refunds.isEmpty && store.snapshot.committedDurabilities == before.committedDurabilities)
    }

    @Test("a reason that breaks the void reason's rule, or an amount below 1, is refused before anything is read or written")
    func badInputRefused() async throws {
        let (bill, _) = try await paidBill()
        let before = store.snapshot.committedDurabilities
        let key = Keys.refund("bad", fingerprint: "POST /v1/bills/\(bill.id)/refund")
        for reason in ["", "   ", String(repeating: "x", count: BillVoiding.maxReasonLength + 1), "bad\u{0}byte"] {
            await #expect(throws: InvalidInput(field: "reason", rule: BillVoiding.reasonRule)) {
                try await till.refund(billId: bill.id, amountMinor: 1, reason: reason, caller: manager, idempotency: key)
            }
        }
        // Before the bill is looked up: a missing bill with a bad reason is the reason's refusal.
        await #expect(throws: InvalidInput(field: "reason", rule: BillVoiding.reasonRule)) {
            try await till.refund(billId: "bill_missing", amountMinor: 1, reason: "", caller: manager, idempotency: nil)
        }
        for amount: Int64 in [0, -5] {
            await #expect(throws: InvalidInput(field: "amountMinor", rule: "at least 1")) { try await refund(bill.id, amount, key: key) }
        }
        // The longest reason is fine.
        let longest = String(repeating: "é", count: BillVoiding.maxReasonLength)
        #expect(try await till.refund(billId: bill.id, amountMinor: 1, reason: longest, caller: manager, idempotency: nil).performedValue?.refund.reason == longest)
        #expect(store.snapshot.committedDurabilities == before + [.full])
        #expect(store.snapshot.recordedAnswers.values.allSatisfy { $0.key != "bad" })
    }
}
