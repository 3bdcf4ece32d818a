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
        try bill.markPaid()
        #expect(bill.status == .paid)
        #expect(bill.version == 6)
        #expect(bill.totalMinor == total)
    }

    @Test("cancel and pay need a checked-out bill")
    func needsCheckedOut() throws {
        var open = try Fixtures.bill(with: [Fixtures.latte])
        #expect(throws: POSError.billNotCheckedOut(.open)) { try open.cancelCheckout() }
        #expect(throws: POSError.billNotCheckedOut(.open)) { try open.markPaid() }
        var paid = try Fixtures.checkedOutBill()
        try paid.markPaid()
        #expect(throws: POSError.billNotCheckedOut(.paid)) { try paid.cancelCheckout() }
        #expect(throws: POSError.billNotCheckedOut(.paid)) { try paid.markPaid() }
        var checkedOut = try Fixtures.checkedOutBill()
        #expect(throws: POSError.billNotOpen(.checkedOut)) { try checkedOut.checkout() }
    }
}
