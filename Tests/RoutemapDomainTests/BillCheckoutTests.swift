import RoutemapDomain
import Testing

@Suite("Bill life cycle: checkout, cancel, paid")
struct BillCheckoutTests {
    @Test("an empty bill cannot be checked out")
    func emptyCheckout() {
        var bill = Fixtures.bill()
        #expect(throws: POSError.billEmpty) { try bill.checkout() }
        #expect(bill.status == .open)
        #expect(bill.version == 1)
    }

    @Test("open → checked out → open → checked out → paid, each a new version, totals unchanged")
    func lifeCycle() throws {
        var bill = try Fixtures.bill(with: [Fixtures.latte])
        let total = bill.totalMinor
        try bill.checkout()
        #expect(bill.status == .checkedOut)
        #expect(bill.version == 3)
        try bill.cancelCheckout()
        #expect(bill.status == .open)
        try bill.checkout()
        let payment = try bill.check(PaymentRequest(method: .card, amountMinor: total))
            .payment(id: "pay_test", receiptNumber: 1, createdAt: Fixtures.createdAt, deviceId: Fixtures.device)
        try bill.record(payment)
        #expect(bill.status == .paid && bill.payments == [payment])
        #expect(bill.version == 6)
        #expect(bill.totalMinor == total)
    }

    @Test("cancel and pay need a checked-out bill")
    func needsCheckedOut() throws {
        var open = try Fixtures.bill(with: [Fixtures.latte])
        #expect(throws: POSError.billNotCheckedOut(.open)) { try open.cancelCheckout() }
        let due = PaymentRequest(method: .card, amountMinor: open.totalMinor)
        #expect(throws: POSError.billNotCheckedOut(.open)) { try open.check(due) }
        var paid = try Fixtures.paidBill()
        let another = try Fixtures.checkedOutBill().check(due).payment(id: "pay_other", receiptNumber: 2, createdAt: Fixtures.createdAt, deviceId: Fixtures.device)
        #expect(throws: POSError.billNotCheckedOut(.open)) { try open.record(another) }
        #expect(throws: POSError.billNotCheckedOut(.paid)) { try paid.cancelCheckout() }
        #expect(throws: POSError.billNotCheckedOut(.paid)) { try paid.check(due) }
        #expect(throws: POSError.billNotCheckedOut(.paid)) { try paid.record(another) }
        var checkedOut = try Fixtures.checkedOutBill()
        #expect(throws: POSError.billNotOpen(.checkedOut)) { try checkedOut.checkout() }
    }
}
