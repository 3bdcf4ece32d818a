import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

/// Bill labels ("Table 4", "Sam's tab"): the rule (trimmed, 1 to 40 characters, no U+0000), a
/// stored label, naming a bill while it is unsettled, and the till's use cases.
@Suite("Bill labels: rule, changes, the till")
struct BillLabelTests {
    @Test("a label is trimmed; empty or only whitespace is none")
    func trimming() throws {
        #expect(try BillLabel.parse("  Table 4 \n")?.text == "Table 4")
        #expect(try BillLabel.parse("Sam's\ttab")?.text == "Sam's\ttab", "whitespace inside is kept")
        for blank in ["", " ", "\t\n\r", "\u{A0}\u{3000}", "\u{200B}\u{FEFF}"] { #expect(try BillLabel.parse(blank) == nil) }
        #expect(try BillLabel.parse("\u{A0}Zoë\u{2003}")?.text == "Zoë")
    }

    @Test("40 characters, counted as Unicode scalars, are allowed; 41 or U+0000 are refused, whitespace included")
    func limits() throws {
        #expect(BillLabel.maxCharacters == 40)
        #expect(try BillLabel.parse(String(repeating: "é", count: 40))?.text.unicodeScalars.count == 40)
        #expect(try BillLabel.parse(String(repeating: "🍕", count: 40)) != nil)
        let refused = InvalidInput(field: "label", rule: BillLabel.rule)
        #expect(throws: refused) { try BillLabel.parse(String(repeating: "a", count: 41)) }
        #expect(throws: refused) { try BillLabel.parse(String(repeating: "a", count: 39) + "  ") }
        #expect(throws: refused) { try BillLabel.parse(String(repeating: "e\u{301}", count: 21)) }
        #expect(throws: refused) { try BillLabel.parse("Table\u{0}4") }
    }

    @Test("a stored label must be a trimmed, non-empty one: anything else is an invalid bill")
    func storedLabels() throws {
        let bill = try Bill(id: "bill_a", currency: .usd, taxRate: Fixtures.rate875, createdAt: Date(), label: "Table 4")
        let parsed = try BillLabel.parse("Table 4")
        #expect(bill.label == "Table 4" && bill.billLabel == parsed)
        #expect(try Bill(id: "bill_a", currency: .usd, taxRate: Fixtures.rate875, createdAt: Date()).label == nil)
        for bad in ["", " Table 4", "Table 4 ", String(repeating: "a", count: 41), "a\u{0}b"] {
            #expect(throws: InvariantViolation.self) {
                try Bill(id: "bill_a", currency: .usd, taxRate: Fixtures.rate875, createdAt: Date(), label: bad)
            }
        }
    }

    @Test("naming a bill: set, replace, clear, each a new version; the same label again is none; checked out too")
    func change() throws {
        var bill = try Fixtures.bill(with: [Fixtures.latte])
        let version = bill.version
        try bill.setLabel(try BillLabel.parse("Table 4"))
        #expect(bill.label == "Table 4" && bill.version == version + 1)
        try bill.setLabel(try BillLabel.parse(" Table 4 "))
        #expect(bill.version == version + 1, "the same label changes nothing")
        try bill.checkout()
        try bill.setLabel(try BillLabel.parse("Sam's tab"))
        #expect(bill.label == "Sam's tab" && bill.status == .checkedOut && bill.version == version + 3)
        try bill.setLabel(nil)
        #expect(bill.label == nil && bill.version == version + 4)
        try bill.setLabel(nil)
        #expect(bill.version == version + 4, "removing none changes nothing")
        #expect(bill.subtotalMinor == 475, "a label moves no money")
    }

    @Test("a paid or voided bill keeps its label: naming it is billSettled and leaves it as it was")
    func settled() throws {
        var voided = try Fixtures.bill(with: [Fixtures.latte])
        try voided.setLabel(try BillLabel.parse("Table 4"))
        try voided.void(reason: "walked out", at: Date())
        let before = voided
        #expect(throws: POSError.billSettled(.voided)) { try voided.setLabel(try BillLabel.parse("Table 5")) }
        #expect(throws: POSError.billSettled(.voided)) { try voided.setLabel(nil) }
        #expect(voided == before && voided.label == "Table 4")
    }

    @Test("the till: open with a label, rename, clear with an empty or blank one; labels repeat; refusals change nothing")
    func till() async throws {
        let store = InMemoryStore(menu: Fixtures.menu)
        let till = Till(store: store, taxRate: Fixtures.rate875, currency: .usd)
        let device = Fixtures.device
        var bill = try await till.openBill(device: device, label: " Table 4 ")
        #expect(bill.label == "Table 4" && bill.version == 1)
        let twin = try await till.openBill(device: device, label: "Table 4")
        #expect(twin.label == "Table 4" && twin.id != bill.id, "labels are not unique")
        #expect(try await till.openBill(device: device, label: "  ").label == nil)
        await #expect(throws: InvalidInput(field: "label", rule: BillLabel.rule)) {
            try await till.openBill(device: device, label: String(repeating: "x", count: 41))
        }
        await #expect(throws: InvalidInput(field: "label", rule: BillLabel.rule)) {
            try await till.setLabel(billId: bill.id, device: device, label: "a\u{0}")
        }
        await #expect(throws: POSError.billNotFound(bill.id)) {
            try await till.setLabel(billId: bill.id, device: "dev_other", label: "Mine now")
        }
        #expect(try till.bill(id: bill.id, device: device) == bill)
        bill = try await till.setLabel(billId: bill.id, device: device, label: "Sam's tab")
        #expect(bill.label == "Sam's tab" && bill.version == 2)
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        #expect(bill.label == "Sam's tab", "other changes keep the label")
        bill = try await till.setLabel(billId: bill.id, device: device, label: " \t")
        #expect(bill.label == nil)
        bill = try await till.setLabel(billId: bill.id, device: device, label: "Sam's tab")
        bill = try await till.setLabel(billId: bill.id, device: device, label: nil)
        #expect(bill.label == nil)
        #expect(try till.bill(id: bill.id, device: device) == bill)
        // Paid: its label stays, and no longer changes.
        bill = try await till.setLabel(billId: bill.id, device: device, label: "Table 9")
        _ = try await till.checkout(billId: bill.id, device: device)
        let paid = try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: bill.totalMinor)).bill
        #expect(paid.label == "Table 9")
        await #expect(throws: POSError.billSettled(.paid)) { try await till.setLabel(billId: bill.id, device: device, label: "x") }
        #expect(try till.bill(id: bill.id, device: device) == paid)
    }
}
