import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

/// Split tender on the bill itself: what is due, the checks of a partial request, recording
/// payments until the bill is paid, and what a partly paid bill refuses.
@Suite("Split tender: several payments of one bill")
struct SplitTenderTests {
    /// One latte: 517.
    private func partly(paying amounts: [Int64]) throws -> Bill {
        var bill = try Fixtures.checkedOutBill()
        for (index, amount) in amounts.enumerated() {
            let checked = try bill.check(try PaymentRequest(method: .card, amountMinor: amount, tipMinor: 0, partial: true))
            try bill.record(checked.payment(id: "pay_\(index)", receiptNumber: Int64(index + 1), createdAt: Fixtures.createdAt, deviceId: Fixtures.device))
        }
        return bill
    }

    @Test("each partial payment lowers what is due and leaves the bill checked out; the one that pays the rest makes it paid")
    func partsThenPaid() throws {
        var bill = try partly(paying: [200, 17])
        #expect(bill.status == .checkedOut && bill.paidMinor == 217 && bill.dueMinor == 300 && bill.isPartlyPaid)
        #expect(bill.payments.map(\.id) == ["pay_0", "pay_1"])
        // The summary's tips are on what is still due (300), not on the whole total (517).
        #expect(bill.suggestedTips().map(\.tipMinor) == [30, 45, 60])
        let checked = try bill.check(PaymentRequest(method: .cash, amountMinor: 300, tenderedMinor: 500))
        #expect(checked.completesBill && checked.changeMinor == 200)
        try bill.record(checked.payment(id: "pay_2", receiptNumber: 3, createdAt: Fixtures.createdAt, deviceId: Fixtures.device))
        #expect(bill.status == .paid && bill.paidMinor == 517 && bill.dueMinor == 0 && !bill.isPartlyPaid)
        #expect(bill.version == 3 + 3)
    }

    @Test("a request for the whole due must be exactly it; a partial one 1 to what is due")
    func amounts() throws {
        let bill = try partly(paying: [200])
        #expect(throws: POSError.amountMismatch(expectedMinor: 317, receivedMinor: 517)) {
            try bill.check(PaymentRequest(method: .card, amountMinor: 517))
        }
        #expect(throws: POSError.amountExceedsDue(dueMinor: 317, receivedMinor: 318)) {
            try bill.check(try PaymentRequest(method: .card, amountMinor: 318, tipMinor: 0, partial: true))
        }
        #expect(throws: InvalidInput(field: "amountMinor", rule: "at least 1 for a partial payment")) {
            try PaymentRequest(method: .card, amountMinor: 0, tipMinor: 0, partial: true)
        }
        // A partial request for all that is due completes the bill, as a whole one does.
        #expect(try bill.check(try PaymentRequest(method: .card, amountMinor: 317, tipMinor: 0, partial: true)).completesBill)
        #expect(try !bill.check(try PaymentRequest(method: .card, amountMinor: 316, tipMinor: 0, partial: true)).completesBill)
        // Tip and tender are per payment: cash covers this payment's amount and tip.
        let cash = try bill.check(try PaymentRequest(method: .cash, amountMinor: 100, tenderedMinor: 200, tipMinor: 50, partial: true))
        #expect(cash.changeMinor == 50)
    }

    @Test("a partly paid bill refuses cancelling its checkout and voiding; it can be resumed and transferred")
    func partlyPaidRefusals() throws {
        var bill = try partly(paying: [100])
        let before = bill
        #expect(throws: POSError.billPartlyPaid(paidMinor: 100)) { try bill.cancelCheckout() }
        #expect(throws: POSError.billPartlyPaid(paidMinor: 100)) { try bill.void(reason: "Left", at: Fixtures.createdAt) }
        #expect(bill == before)
        try bill.transfer(to: Fixtures.otherDevice)
        #expect(bill.payments == before.payments)
    }

    @Test("a bill cannot be made with payments its state does not allow")
    func invariants() throws {
        let paid = try partly(paying: [517])
        let payment = try #require(paid.payments.first)
        func make(_ status: BillStatus, _ payments: [Payment]) throws -> Bill {
            try Bill(
                id: paid.id, status: status, lines: paid.lines, currency: .usd, taxRate: Fixtures.rate875, createdAt: Fixtures.createdAt,
                voiding: status == .voided ? BillVoiding(reason: "x", voidedAt: Fixtures.createdAt) : nil, payments: payments)
        }
        #expect(try make(.paid, [payment]).paidMinor == 517)
        #expect(throws: InvariantViolation.self) { try make(.open, [payment]) }
        #expect(throws: InvariantViolation.self) { try make(.voided, [payment]) }
        #expect(throws: InvariantViolation.self) { try make(.checkedOut, [payment]) }
        let half = Payment(
            id: "pay_half", billId: paid.id, receiptNumber: 9, method: .card, amountMinor: 300, tenderedMinor: 300, changeMinor: 0,
            createdAt: Fixtures.createdAt)
        #expect(throws: InvariantViolation.self) { try make(.paid, [half]) }
        #expect(throws: InvariantViolation.self) { try make(.checkedOut, [half, half]) }
        #expect(try make(.checkedOut, [half]).dueMinor == 217)
    }

    @Test("over the till: a partial payment keeps the bill current and takes no next bill; the last one does")
    func tillKeepsBillCurrent() async throws {
        let store = InMemoryStore(menu: Fixtures.menu)
        let till = Till(store: store, taxRate: Fixtures.rate875, currency: .usd)
        let bill = try await till.openBill(device: Fixtures.device)
        _ = try await till.addItem(billId: bill.id, device: Fixtures.device, menuItemId: "latte", quantity: 1)
        _ = try await till.checkout(billId: bill.id, device: Fixtures.device)
        let part = try await till.pay(
            billId: bill.id, device: Fixtures.device, try PaymentRequest(method: .card, amountMinor: 17, tipMinor: 0, partial: true))
        #expect(part.nextBill == part.bill && part.bill.dueMinor == 500)
        #expect(try store.currentBill(deviceId: Fixtures.device)?.id == bill.id)
        #expect(store.snapshot.bills.count == 1)
        let rest = try await till.pay(billId: bill.id, device: Fixtures.device, PaymentRequest(method: .card, amountMinor: 500))
        #expect(rest.bill.status == .paid && rest.nextBill.id != bill.id)
        #expect(try store.bill(id: bill.id) == rest.bill)
        #expect(store.snapshot.payments.map(\.receiptNumber) == [1, 2])
    }
}
