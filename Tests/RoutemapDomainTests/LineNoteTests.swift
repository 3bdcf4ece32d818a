import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

/// Line notes ("no onions", "extra hot"): the rule (trimmed, 1 to 140 characters, no U+0000), the
/// note as part of a line's identity when adding, and changing a line's note.
@Suite("Line notes: rule, identity, changes")
struct LineNoteTests {
    @Test("a note is trimmed; empty or only whitespace is none")
    func trimming() throws {
        #expect(try LineNote.parse("  extra hot \n")?.text == "extra hot")
        #expect(try LineNote.parse("no\tonions")?.text == "no\tonions", "whitespace inside is kept")
        for blank in ["", " ", "\t\n\r", "\u{A0}\u{3000}", "\u{200B}\u{FEFF}"] { #expect(try LineNote.parse(blank) == nil) }
        #expect(try LineNote.parse("\u{A0}é\u{2003}")?.text == "é")
    }

    @Test("140 characters, counted as Unicode scalars, are allowed; 141 or U+0000 are refused, whitespace included")
    func limits() throws {
        #expect(try LineNote.parse(String(repeating: "é", count: 140))?.text.unicodeScalars.count == 140)
        #expect(try LineNote.parse(String(repeating: "👍", count: 140)) != nil)
        let refused = InvalidInput(field: "note", rule: LineNote.rule)
        #expect(throws: refused) { try LineNote.parse(String(repeating: "a", count: 141)) }
        // The rule is on what was written (as the request's maxLength is), before trimming.
        #expect(throws: refused) { try LineNote.parse(String(repeating: "a", count: 139) + "   ") }
        // "é" written as e + a combining accent is two scalars.
        #expect(throws: refused) { try LineNote.parse(String(repeating: "e\u{301}", count: 71)) }
        #expect(throws: refused) { try LineNote.parse("hot\u{0}") }
    }

    @Test("a stored note must be a trimmed, non-empty one: anything else is an invalid line")
    func storedNotes() throws {
        #expect(try BillLine(lineId: "line_a", menuItemId: "latte", name: "Latte", quantity: 1, unitPriceMinor: 475, note: "hot").note == "hot")
        for bad in ["", " hot", "hot ", String(repeating: "a", count: 141), "a\u{0}b"] {
            #expect(throws: InvariantViolation.self) {
                try BillLine(lineId: "line_a", menuItemId: "latte", name: "Latte", quantity: 1, unitPriceMinor: 475, note: bad)
            }
        }
    }

    @Test("the note is part of a line: the same item with the same note merges, another note or none is a line of its own")
    func identity() throws {
        var bill = Fixtures.bill()
        let hot = try LineNote.parse("extra hot")
        try bill.add(Fixtures.latte, quantity: 1, newLineId: "line_a")
        try bill.add(Fixtures.latte, quantity: 1, note: hot, newLineId: "line_b")
        try bill.add(Fixtures.latte, quantity: 2, note: try LineNote.parse(" extra hot "), newLineId: "line_c")
        try bill.add(Fixtures.latte, quantity: 1, note: try LineNote.parse("Extra hot"), newLineId: "line_d")
        try bill.add(Fixtures.latte, quantity: 1, note: try LineNote.parse("   "), newLineId: "line_e")
        #expect(bill.lines.map(\.lineId) == ["line_a", "line_b", "line_d"])
        #expect(bill.lines.map(\.quantity) == [2, 3, 1])
        #expect(bill.lines.map(\.note) == [nil, "extra hot", "Extra hot"])
        #expect(bill.subtotalMinor == 6 * 475)
    }

    @Test("changing a note: set, replace, clear; the quantity with it is one change; the same note again is none")
    func change() throws {
        var bill = try Fixtures.bill(with: [Fixtures.latte, Fixtures.croissant])
        let version = bill.version
        try bill.changeLine(lineId: "line_0", note: try LineNote.parse("oat milk"))
        #expect(bill.lines[0].note == "oat milk" && bill.version == version + 1)
        try bill.changeLine(lineId: "line_0", note: try LineNote.parse("oat milk"))
        #expect(bill.version == version + 1, "the same note changes nothing")
        try bill.changeLine(lineId: "line_0", quantity: 3, note: try LineNote.parse("no foam"), item: Fixtures.latte)
        #expect(bill.lines[0].note == "no foam" && bill.lines[0].quantity == 3 && bill.version == version + 2)
        #expect(bill.lines[0].unitPriceMinor == 475 && bill.subtotalMinor == 3 * 475 + 350)
        try bill.changeLine(lineId: "line_0", note: .some(nil))
        #expect(bill.lines[0].note == nil && bill.lines[0].quantity == 3 && bill.version == version + 3)
        // A note alone needs no item, even on a line whose item is gone from the menu.
        try bill.changeLine(lineId: "line_1", note: try LineNote.parse("warmed"), item: nil)
        #expect(bill.lines[1].note == "warmed")
    }

    @Test("a line changed to look like another stays its own; adding then raises the first of them")
    func noMergeOnChange() throws {
        var bill = Fixtures.bill()
        try bill.add(Fixtures.latte, quantity: 1, newLineId: "line_a")
        try bill.add(Fixtures.latte, quantity: 2, note: try LineNote.parse("hot"), newLineId: "line_b")
        try bill.changeLine(lineId: "line_b", note: .some(nil))
        #expect(bill.lines.map(\.lineId) == ["line_a", "line_b"] && bill.lines.map(\.note) == [nil, nil])
        try bill.add(Fixtures.latte, quantity: 1, newLineId: "line_c")
        #expect(bill.lines.map(\.quantity) == [2, 2])
    }

    @Test("a note changes only on an open bill, and only on a line it has; a refused change leaves the bill")
    func refusals() throws {
        var bill = try Fixtures.bill(with: [Fixtures.latte])
        #expect(throws: POSError.lineNotFound("line_x")) { try bill.changeLine(lineId: "line_x", note: try LineNote.parse("hot")) }
        try bill.checkout()
        let checkedOut = bill
        #expect(throws: POSError.billNotOpen(.checkedOut)) { try bill.changeLine(lineId: "line_0", note: try LineNote.parse("hot")) }
        #expect(bill == checkedOut)
    }

    @Test("the till: add with a note, change it, clear it with an empty or blank one; a bad note is refused before anything changes")
    func till() async throws {
        let store = InMemoryStore(menu: Fixtures.menu)
        let till = Till(store: store, taxRate: Fixtures.rate875, currency: .usd)
        let device = Fixtures.device
        var bill = try await till.openBill(device: device)
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1, note: " extra hot ")
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1, note: "")
        #expect(bill.lines.map(\.note) == ["extra hot", nil])
        let line = bill.lines[0].lineId
        await #expect(throws: InvalidInput(field: "note", rule: LineNote.rule)) {
            try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1, note: String(repeating: "x", count: 141))
        }
        await #expect(throws: InvalidInput(field: "note", rule: LineNote.rule)) {
            try await till.changeLine(billId: bill.id, device: device, lineId: line, quantity: 5, note: "a\u{0}")
        }
        #expect(try till.bill(id: bill.id, device: device) == bill)
        bill = try await till.changeLine(billId: bill.id, device: device, lineId: line, note: "no foam")
        #expect(bill.lines[0].note == "no foam" && bill.lines[0].quantity == 1)
        bill = try await till.changeLine(billId: bill.id, device: device, lineId: line, quantity: 2)
        #expect(bill.lines[0].note == "no foam" && bill.lines[0].quantity == 2, "a quantity alone keeps the note")
        bill = try await till.changeLine(billId: bill.id, device: device, lineId: line, note: " \t")
        #expect(bill.lines[0].note == nil)
        #expect(try till.bill(id: bill.id, device: device) == bill)
    }
}
