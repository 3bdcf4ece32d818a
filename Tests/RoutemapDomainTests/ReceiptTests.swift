import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

@Suite("Receipts: every payment numbered in order, and a paid bill's receipt")
struct ReceiptTests {
    let store = InMemoryStore(menu: Fixtures.menu)
    let clock = TestClock()
    let manager = BillCaller(deviceId: "dev_M", role: .manager)
    let shop: ShopDetails

    init() throws {
        shop = try ShopDetails(name: "Harbour Coffee", address: "12 Harbour Street, Bristol", taxId: "GB123456789")
    }

    private var till: Till { Till(store: store, taxRate: Fixtures.rate875, currency: .usd, shop: shop, now: clock.function) }

    /// A checked-out bill of `device` holding two lattes (950 + 83 = 1033).
    private func checkedOut(device: String = Fixtures.device) async throws -> Bill {
        let bill = try await till.addItem(billId: try await till.openBill(device: device).id, device: device, menuItemId: "latte", quantity: 2)
        return try await till.checkout(billId: bill.id, device: device)
    }

    /// A key whose recorded answer is the receipt number the payment got (or the refusal).
    private func key(_ key: String, _ bill: Bill) -> IdempotencyKey<PaymentOutcome> {
        IdempotencyKey(key: key, fingerprint: "POST /v1/bills/\(bill.id)/pay") { outcome in
            switch outcome {
            case .success(let outcome): Array("receipt \(outcome.payment.receiptNumber)".utf8)
            case .failure(let error): Array("conflict \(error)".utf8)
            }
        }
    }

    private func pay(_ bill: Bill, device: String = Fixtures.device, amount: Int64? = nil, key: IdempotencyKey<PaymentOutcome>? = nil)
        async throws -> IdempotentOutcome<PaymentOutcome>
    {
        try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: amount ?? bill.totalMinor), idempotency: key)
    }

    @Test("payments are numbered 1, 2, 3 in the order they are made, whichever device pays; a refusal recorded under its key takes no number; a replay answers the same number")
    func sequentialNumbers() async throws {
        let first = try await checkedOut()
        let second = try await checkedOut(device: Fixtures.otherDevice)
        let third = try await checkedOut()

        let one = try #require(try await pay(first, key: key("k1", first)).performedValue)
        #expect(one.payment.receiptNumber == 1)
        // Refused under a key for the bill's state (paid already): the refusal is recorded and
        // committed, and takes no number; nor does one refused for its content (not recorded).
        await #expect(throws: POSError.billNotCheckedOut(.paid)) { try await pay(first, key: key("k2", first)) }
        await #expect(throws: POSError.amountMismatch(expectedMinor: 1033, receivedMinor: 1)) {
            try await pay(second, device: Fixtures.otherDevice, amount: 1, key: key("k5", second))
        }
        let two = try #require(try await pay(second, device: Fixtures.otherDevice, key: key("k3", second)).performedValue)
        #expect(two.payment.receiptNumber == 2)
        // The first payment's retry replays its answer: the same number, no new payment.
        guard case .replayed(let answer) = try await pay(first, key: key("k1", first)) else {
            Issue.record("the retry was performed again")
            return
        }
        #expect(String(decoding: answer.answer, as: UTF8.self) == "receipt 1")
        let three = try #require(try await pay(third, key: key("k4", third)).performedValue)
        #expect(three.payment.receiptNumber == 3)
        #expect(store.snapshot.payments.map(\.receiptNumber) == [1, 2, 3])
        #expect(try store.payment(id: two.payment.id)?.receiptNumber == 2)
    }

    @Test("the receipt: the shop, the bill's lines and totals at its rate, the payment with its number and time, the refunds and their sum")
    func receipt() async throws {
        let bill = try await checkedOut(device: Fixtures.otherDevice)
        clock.advance(by: 5)
        let paid = try await till.pay(billId: bill.id, device: Fixtures.otherDevice, PaymentRequest(method: .cash, amountMinor: 1033, tenderedMinor: 2000))
        let none = try till.receipt(billId: bill.id, caller: .till(Fixtures.otherDevice))
        #expect(try none == Receipt(shop: shop, bill: paid.bill, refunds: BillRefunds(refunds: [], paidMinor: 1033)))
        #expect(none.payments == [paid.payment])
        #expect(none.payment.receiptNumber == 1 && none.payment.createdAt == clock.now && none.payment.changeMinor == 967)
        #expect(none.bill.status == .paid && none.bill.lines.map(\.quantity) == [2] && none.bill.taxMinor == 83)

        clock.advance(by: 1)
        let refund = try #require(
            try await till.refund(billId: bill.id, amountMinor: 475, reason: "Cold latte", caller: manager, idempotency: nil).performedValue)
        // The manager reads any device's receipt; the till its own; both see the refund.
        for caller in [manager, .till(Fixtures.otherDevice)] {
            let receipt = try till.receipt(billId: bill.id, caller: caller)
            #expect(receipt.refunds.refunds == [refund.refund] && receipt.refunds.refundedMinor == 475)
            #expect(receipt.payment == paid.payment && receipt.bill == paid.bill && receipt.shop == shop)
        }
    }

    @Test("refusals: another till's receipt and an unknown bill are not found; a bill not paid says its status")
    func refusals() async throws {
        let bill = try await checkedOut()
        #expect(throws: POSError.billNotPaid(.checkedOut)) { try till.receipt(billId: bill.id, caller: .till(Fixtures.device)) }
        #expect(throws: POSError.billNotPaid(.checkedOut)) { try till.receipt(billId: bill.id, caller: manager) }
        let open = try await till.openBill(device: Fixtures.device)
        #expect(throws: POSError.billNotPaid(.open)) { try till.receipt(billId: open.id, caller: .till(Fixtures.device)) }
        _ = try await till.void(billId: open.id, device: Fixtures.device, reason: "mistake", idempotency: nil)
        #expect(throws: POSError.billNotPaid(.voided)) { try till.receipt(billId: open.id, caller: .till(Fixtures.device)) }
        _ = try await pay(bill)
        #expect(throws: POSError.billNotFound(bill.id)) { try till.receipt(billId: bill.id, caller: .till(Fixtures.otherDevice)) }
        #expect(throws: POSError.billNotFound("bill_nope")) { try till.receipt(billId: "bill_nope", caller: manager) }
        #expect(try till.receipt(billId: bill.id, caller: .till(Fixtures.device)).payment.receiptNumber == 1)
    }

    @Test("shop details: 1 to 200 characters on one line, something visible; each refusal names its field")
    func shopDetails() throws {
        let longest = String(repeating: "é", count: 200)
        let details = try ShopDetails(name: longest, address: "1 Main St, Springfield", taxId: nil)
        #expect(details.name == longest && details.taxId == nil)
        #expect(ShopDetails() == (try ShopDetails(name: nil, address: nil, taxId: nil)))
        for bad in ["", "   ", String(repeating: "a", count: 201), "line\nbreak", "tab\there", "nul\u{0}", "c1\u{85}", "sep\u{2028}"] {
            #expect(!ShopDetails.isValid(bad), "\(bad.debugDescription)")
            #expect(throws: InvalidInput(field: "address", rule: ShopDetails.rule)) { try ShopDetails(name: "Shop", address: bad) }
            #expect(throws: InvalidInput(field: "taxId", rule: ShopDetails.rule)) { try ShopDetails(taxId: bad) }
            #expect(throws: InvalidInput(field: "name", rule: ShopDetails.rule)) { try ShopDetails(name: bad) }
        }
    }
}
