import Foundation
import RoutemapDomain
import Testing

@Suite("Payment math: cash, card, and the order of the checks")
struct PaymentTests {
    /// One latte: 475 + 41.5625 → 42 = 517.
    private let total: Int64 = 517

    /// `request` checked against `bill` (the fixture's checked-out bill) and made a payment;
    /// tips' tests use it too.
    func pay(_ request: PaymentRequest, on bill: Bill? = nil) throws -> Payment {
        let bill = try bill ?? Fixtures.checkedOutBill()
        return try bill.check(request).payment(id: "pay_test", receiptNumber: 7, createdAt: Fixtures.createdAt, deviceId: Fixtures.device)
    }

    @Test("the fixture's total")
    func fixtureTotal() throws {
        #expect(try Fixtures.checkedOutBill().totalMinor == total)
    }

    @Test("cash with change: change is tendered − total")
    func cashWithChange() throws {
        let payment = try pay(PaymentRequest(method: .cash, amountMinor: total, tenderedMinor: 2_000))
        #expect(payment == Payment(
            id: "pay_test", billId: "bill_test", receiptNumber: 7, method: .cash, amountMinor: total, tenderedMinor: 2_000,
            changeMinor: 2_000 - total, createdAt: Fixtures.createdAt, deviceId: Fixtures.device))
    }

    @Test("cash without tendered means exact money")
    func cashExact() throws {
        let payment = try pay(PaymentRequest(method: .cash, amountMinor: total))
        #expect(payment.tenderedMinor == total)
        #expect(payment.changeMinor == 0)
    }

    @Test("cash short of the total is refused")
    func cashShort() {
        #expect(throws: POSError.insufficientTender(chargedMinor: total, tenderedMinor: total - 1)) {
            try pay(PaymentRequest(method: .cash, amountMinor: total, tenderedMinor: total - 1))
        }
    }

    @Test("card takes the exact amount, no change; tendered may repeat the amount")
    func card() throws {
        for tendered in [nil, total] {
            let payment = try pay(PaymentRequest(method: .card, amountMinor: total, tenderedMinor: tendered))
            #expect(payment.tenderedMinor == total)
            #expect(payment.changeMinor == 0)
            #expect(payment.method == .card)
        }
    }

    @Test("card with another tendered amount is refused", arguments: [0, 516, 518, 10_000] as [Int64])
    func cardTender(tendered: Int64) {
        #expect(throws: POSError.tenderNotAllowed) {
            try pay(PaymentRequest(method: .card, amountMinor: total, tenderedMinor: tendered))
        }
    }

    @Test("the amount must be the total", arguments: [PaymentMethod.cash, .card])
    func amountMismatch(method: PaymentMethod) {
        for amount in [0, total - 1, total + 1] {
            #expect(throws: POSError.amountMismatch(expectedMinor: total, receivedMinor: amount)) {
                try pay(PaymentRequest(method: method, amountMinor: amount))
            }
        }
    }

    @Test("checks run in order: status, then amount, then tender")
    func order() throws {
        let open = try Fixtures.bill(with: [Fixtures.latte])
        // Wrong in every way: the status is reported.
        #expect(throws: POSError.billNotCheckedOut(.open)) {
            try pay(PaymentRequest(method: .cash, amountMinor: 1, tenderedMinor: 0), on: open)
        }
        // Wrong amount and short tender: the amount is reported.
        #expect(throws: POSError.amountMismatch(expectedMinor: total, receivedMinor: 1)) {
            try pay(PaymentRequest(method: .cash, amountMinor: 1, tenderedMinor: 0))
        }
        #expect(throws: POSError.amountMismatch(expectedMinor: total, receivedMinor: 1)) {
            try pay(PaymentRequest(method: .card, amountMinor: 1, tenderedMinor: 5))
        }
    }

    @Test("computing a payment does not change the bill")
    func pure() throws {
        let bill = try Fixtures.checkedOutBill()
        _ = try bill.check(PaymentRequest(method: .card, amountMinor: total))
        #expect(bill.status == .checkedOut)
        #expect(bill.version == 3)
    }
}
