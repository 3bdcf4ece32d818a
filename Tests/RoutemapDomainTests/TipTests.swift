import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

/// Tips at payment: on top of the total, not a sale.
@Suite("Tips: on top of the total, covered by the tender, not sales")
struct TipTests {
    /// One latte: 475 + 41.5625 → 42 = 517.
    private let total: Int64 = 517

    private func pay(_ request: PaymentRequest) throws -> Payment { try PaymentTests().pay(request) }

    @Test("cash: the tender covers the total and the tip; change is tendered − total − tip; charged is total + tip")
    func cash() throws {
        let payment = try pay(try PaymentRequest(method: .cash, amountMinor: total, tenderedMinor: 1_000, tipMinor: 80))
        #expect(payment == Payment(
            id: "pay_test", billId: "bill_test", receiptNumber: 7, method: .cash, amountMinor: total, tipMinor: 80, tenderedMinor: 1_000,
            changeMinor: 1_000 - total - 80, createdAt: Fixtures.createdAt, deviceId: Fixtures.device))
        #expect(payment.chargedMinor == total + 80)
        // No tender given: exactly the charge, no change.
        let exact = try pay(try PaymentRequest(method: .cash, amountMinor: total, tipMinor: 80))
        #expect(exact.tenderedMinor == total + 80 && exact.changeMinor == 0)
    }

    @Test("cash covering the total but not the tip is refused, naming the charge")
    func cashShortOfTheTip() {
        #expect(throws: POSError.insufficientTender(chargedMinor: total + 80, tenderedMinor: total + 79)) {
            try pay(try PaymentRequest(method: .cash, amountMinor: total, tenderedMinor: total + 79, tipMinor: 80))
        }
    }

    @Test("card: tendered is the total and the tip (absent, or exactly that), no change")
    func card() throws {
        for tendered in [nil, total + 80] {
            let payment = try pay(try PaymentRequest(method: .card, amountMinor: total, tenderedMinor: tendered, tipMinor: 80))
            #expect(payment.tenderedMinor == total + 80 && payment.changeMinor == 0 && payment.tipMinor == 80)
        }
        for tendered in [total, total + 79, total + 81] {
            #expect(throws: POSError.tenderNotAllowed) {
                try pay(try PaymentRequest(method: .card, amountMinor: total, tenderedMinor: tendered, tipMinor: 80))
            }
        }
    }

    @Test("the amount is still the total: a tip folded into it is a mismatch")
    func amountStaysTheTotal() {
        #expect(throws: POSError.amountMismatch(expectedMinor: total, receivedMinor: total + 80)) {
            try pay(try PaymentRequest(method: .card, amountMinor: total + 80, tipMinor: 80))
        }
    }

    @Test("a tip outside 0…10^13 is InvalidInput naming tipMinor; both bounds are taken")
    func range() throws {
        for tip in [-1, PaymentRequest.tipRange.upperBound + 1, .min, .max] as [Int64] {
            #expect(throws: InvalidInput(field: "tipMinor", rule: "between 0 and 10000000000000")) {
                try PaymentRequest(method: .card, amountMinor: total, tipMinor: tip)
            }
        }
        #expect(try pay(try PaymentRequest(method: .card, amountMinor: total, tipMinor: 0)).tipMinor == 0)
        let largest = try pay(try PaymentRequest(method: .cash, amountMinor: total, tipMinor: PaymentRequest.tipRange.upperBound))
        #expect(largest.chargedMinor == total + 10_000_000_000_000)
        // The request without a tip has none.
        #expect(PaymentRequest(method: .card, amountMinor: total).tipMinor == 0)
    }

    @Test("suggested tips: 10, 15 and 20 % of the total, rounded half to even as tax is; a percentage beyond 0…100 left out")
    func suggested() throws {
        let bill = try Fixtures.checkedOutBill()  // 517
        #expect(bill.suggestedTips() == [
            SuggestedTip(percent: 10, tipMinor: 52), SuggestedTip(percent: 15, tipMinor: 78), SuggestedTip(percent: 20, tipMinor: 103),
        ])
        // 5 % of 517 is 25.85 → 26.
        #expect(bill.suggestedTips(percents: [0, 5, 100, 101, -1]) == [
            SuggestedTip(percent: 0, tipMinor: 0), SuggestedTip(percent: 5, tipMinor: 26), SuggestedTip(percent: 100, tipMinor: 517),
        ])
    }

    @Test("a shop's suggested tips, as serve's setting gives them: none, or 1 to 5 distinct percentages from 1 to 100, in its order; anything else refused")
    func suggestedTipPercentsFromText() {
        #expect(Bill.suggestedTipPercents(from: "10,15,20") == [10, 15, 20])
        #expect(Bill.suggestedTipPercents(from: "25,5") == [25, 5])
        #expect(Bill.suggestedTipPercents(from: "1,2,3,4,100") == [1, 2, 3, 4, 100])
        #expect(Bill.suggestedTipPercents(from: "none") == [])
        for refused in ["", "0", "101", "10,10", "1,2,3,4,5,6", "10,", ",10", "10, 15", "+10", "-5", "ten", "１０", "none,10", "None"] {
            #expect(Bill.suggestedTipPercents(from: refused) == nil, "\(refused)")
        }
    }

    @Test("a tipped payment leaves the bill's tax and total alone; the report keeps tips out of the takings and sales; a refund gives back the amount at most")
    func notASale() async throws {
        let clock = TestClock()
        let till = Till(store: InMemoryStore(menu: Fixtures.menu), taxRate: Fixtures.rate875, currency: .usd, now: clock.function)
        let device = Fixtures.device
        let manager = BillCaller(deviceId: "dev_M", role: .manager)
        func checkedOut() async throws -> Bill {
            let bill = try await till.addItem(billId: try await till.openBill(device: device).id, device: device, menuItemId: "latte", quantity: 1)
            return try await till.checkout(billId: bill.id, device: device)
        }
        let from = clock.now
        let paid = try await till.pay(
            billId: try await checkedOut().id, device: device, try PaymentRequest(method: .cash, amountMinor: total, tenderedMinor: 1_000, tipMinor: 80))
        #expect(paid.bill.totalMinor == total && paid.bill.taxMinor == 42)
        #expect(paid.payment.tipMinor == 80 && paid.payment.changeMinor == 1_000 - total - 80)
        _ = try await till.pay(billId: try await checkedOut().id, device: device, try PaymentRequest(method: .card, amountMinor: total, tipMinor: 50))
        _ = try await till.pay(billId: try await checkedOut().id, device: device, PaymentRequest(method: .card, amountMinor: total))

        clock.advance(by: 1)
        let report = try till.salesReport(try SalesPeriod(from: from, to: clock.now), caller: manager)
        #expect(report.payments.count == 3 && report.payments.amountMinor == 3 * total)
        #expect(report.payments.cash == SalesReport.Takings(count: 1, amountMinor: total, tenderedMinor: 1_000, changeMinor: 1_000 - total - 80))
        #expect(report.payments.card == SalesReport.Takings(count: 2, amountMinor: 2 * total, tenderedMinor: 2 * total + 50, changeMinor: 0))
        #expect(report.sales.totalMinor == 3 * total && report.sales.taxMinor == 3 * 42)
        #expect(report.tips.count == 2 && report.tips.amountMinor == 130)
        #expect(report.tips.cash == SalesReport.MethodTotals(count: 1, amountMinor: 80))
        #expect(report.tips.card == SalesReport.MethodTotals(count: 1, amountMinor: 50))

        // Refunds give back sale money: the amount, not the tip.
        #expect(try till.refunds(billId: paid.bill.id, caller: manager).refundableMinor == total)
        await #expect(throws: POSError.refundExceedsPayment(refundableMinor: total)) {
            try await till.refund(billId: paid.bill.id, amountMinor: total + 1, reason: "Cold coffee", caller: manager, idempotency: nil)
        }
    }
}
