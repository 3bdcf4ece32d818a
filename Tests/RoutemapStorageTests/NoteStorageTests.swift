import Foundation
import RoutemapDomain
import RoutemapPostgres
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// Line notes on a real database (SQLite, or PostgreSQL when `ROUTEMAP_TEST_DATABASE_URL` is
/// set): a line's note stored with it and read back by this store, another and a reopened one,
/// through merges, changes, clearing and line rewrites; migration 0025 over older rows; and
/// PostgreSQL's guard against a node that does not know notes.
@Suite("Line notes on a real database")
struct NoteStorageTests {
    @Test("a line's note is stored with it and read back by this store, another and a reopened one, through changes and removals")
    func notesStored() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let device = database.device
        // On PostgreSQL another node, with a cache of its own; SQLite has one store per file.
        let other = database.url == nil ? database.store : try database.reopen()
        let otherTill = Till(store: other, taxRate: StorageFixtures.rate875, currency: .usd)
        var bill = try await till.openBill(device: device)
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 1)
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1, note: "extra hot")
        bill = try await otherTill.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1, note: "extra hot ")
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        #expect(bill.lines.map(\.quantity) == [1, 2, 1] && bill.lines.map(\.note) == [nil, "extra hot", nil])
        for store in [database.store, other, try database.reopen()] { #expect(try store.bill(id: bill.id) == bill) }
        // A note set, changed with the quantity, and cleared: one row each time.
        bill = try await otherTill.changeLine(billId: bill.id, device: device, lineId: bill.lines[0].lineId, note: "warmed, no butter ✓")
        for store in [database.store, other, try database.reopen()] { #expect(try store.bill(id: bill.id) == bill) }
        bill = try await till.changeLine(billId: bill.id, device: device, lineId: bill.lines[1].lineId, quantity: 3, note: "oat 🥛")
        for store in [database.store, other, try database.reopen()] { #expect(try store.bill(id: bill.id) == bill) }
        #expect(bill.lines.map(\.note) == ["warmed, no butter ✓", "oat 🥛", nil] && bill.lines[1].quantity == 3)
        bill = try await otherTill.changeLine(billId: bill.id, device: device, lineId: bill.lines[0].lineId, note: "")
        for store in [database.store, other, try database.reopen()] { #expect(try store.bill(id: bill.id) == bill) }
        // Removing the first line rewrites the others: their notes stay with them.
        bill = try await till.removeLine(billId: bill.id, device: device, lineId: bill.lines[0].lineId)
        for store in [database.store, other, try database.reopen()] { #expect(try store.bill(id: bill.id) == bill) }
        #expect(bill.lines.map(\.note) == ["oat 🥛", nil])
        // The longest note, in scalars the database counts as characters.
        let longest = String(repeating: "é", count: LineNote.maxCharacters)
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "espresso", quantity: 1, note: longest)
        let listed = try database.reopen().unsettledBills(deviceId: device, statuses: [.open], after: nil, limit: 10)
        #expect(listed.first { $0.id == bill.id } == bill)
        // Paid: the paid bill and its receipt keep them.
        _ = try await till.checkout(billId: bill.id, device: device)
        let paid = try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: bill.totalMinor)).bill
        #expect(try database.reopen().bill(id: bill.id) == paid && paid.lines.map(\.note) == ["oat 🥛", nil, longest])
    }

    @Test("migration 0025 over a database with bills: their lines read as before, without notes, and take notes")
    func migration() async throws {
        let older = try await OlderDatabase(before: "0025_pos_line_notes", rows: OlderDatabase.openBillOfTwoLattes) { old async throws in
            #expect(try old.bill(id: "bill_1")?.lines.count == 1, "a store reads bills before 0025's column exists")
            // A store on the old file adds lines without notes, as before (their statements name no note).
            let oldTill = Till(store: old, taxRate: TaxRate(basisPoints: 0)!, currency: .usd)
            #expect(try await oldTill.addItem(billId: "bill_1", device: "dev_old", menuItemId: "croissant", quantity: 1).lines.count == 2)
        }
        defer { older.close() }
        let store = older.store
        let kept = try #require(try store.bill(id: "bill_1"))
        #expect(kept.lines.allSatisfy { $0.note == nil } && kept.lines[0].quantity == 2)
        let till = Till(store: store, taxRate: TaxRate(basisPoints: 0)!, currency: .usd)
        // The old line is raised by a latte without a note; one with a note is a line of its own,
        // and the old line takes a note.
        var bill = try await till.addItem(billId: "bill_1", device: "dev_old", menuItemId: "latte", quantity: 1)
        bill = try await till.addItem(billId: bill.id, device: "dev_old", menuItemId: "latte", quantity: 1, note: "extra hot")
        bill = try await till.changeLine(billId: bill.id, device: "dev_old", lineId: "line_1", note: "to go")
        #expect(bill.lines.first?.quantity == 3 && bill.lines.first?.note == "to go" && bill.lines.last?.note == "extra hot")
        #expect(try store.bill(id: "bill_1") == bill)
        // The database refuses a note no server would write.
        #expect(throws: (any Error).self) {
            if let url = older.url {
                _ = try TestPostgres.psql(url, "UPDATE bill_lines SET note = '' WHERE line_id = 'line_1'")
            } else {
                try (store as! SQLiteStore).onWriter("an empty note") { try $0.execute(sql: "UPDATE bill_lines SET note = '' WHERE line_id = 'line_1'") }
            }
        }
    }

    @Test("a node on the binary from before 0025 cannot change a bill with a note (PostgreSQL's trigger); it can change others")
    func oldBinaryRefused() async throws {
        let database = try await TestDatabase()
        guard let url = database.url else { return }
        // No tax: the old binary's hand-written totals below are the lines' sums.
        let till = database.till(taxRate: TaxRate(basisPoints: 0)!)
        var bill = try await till.openBill(device: database.device)
        bill = try await till.addItem(billId: bill.id, device: database.device, menuItemId: "latte", quantity: 1, note: "extra hot")
        bill = try await till.addItem(billId: bill.id, device: database.device, menuItemId: "croissant", quantity: 1)
        var plain = try await till.openBill(device: database.device)
        plain = try await till.addItem(billId: plain.id, device: database.device, menuItemId: "latte", quantity: 1)
        // The old binary's merge of a plain latte into the first latte line: its quantity alone.
        let oldRaise = { (billId: String, price: Int64) in
            """
            BEGIN;
            UPDATE bill_lines SET quantity = quantity + 1, modifier_stamp = quantity + 1 WHERE bill_id = '\(billId)' AND position = 0;
            UPDATE bills SET subtotal_minor = subtotal_minor + \(price), total_minor = total_minor + \(price), version = version + 1
            WHERE id = '\(billId)';
            COMMIT;
            """
        }
        #expect(throws: (any Error).self) { try TestPostgres.psql(url, oldRaise(bill.id, 475)) }
        // The old binary's removal of the croissant: every line deleted, the latte inserted again without its note.
        let oldRewrite = """
            BEGIN;
            DELETE FROM bill_lines WHERE bill_id = '\(bill.id)';
            INSERT INTO bill_lines (bill_id, position, line_id, menu_item_id, name, quantity, unit_price_minor, modifier_stamp)
            VALUES ('\(bill.id)', 0, '\(bill.lines[0].lineId)', 'latte', 'Latte', 1, 475, 1);
            UPDATE bills SET subtotal_minor = 475, total_minor = 475, version = version + 1 WHERE id = '\(bill.id)';
            COMMIT;
            """
        #expect(throws: (any Error).self) { try TestPostgres.psql(url, oldRewrite) }
        #expect(try database.reopen().bill(id: bill.id) == bill)
        // Positive control: the same raise on a bill without notes passes.
        _ = try TestPostgres.psql(url, oldRaise(plain.id, 475))
        #expect(try database.reopen().bill(id: plain.id)?.lines.map(\.quantity) == [2])
        // The new binary goes on changing the bill with a note, and once its note is cleared the
        // old binary may change it again.
        let otherTill = Till(store: try database.reopen(), taxRate: TaxRate(basisPoints: 0)!, currency: .usd)
        bill = try await otherTill.changeLine(billId: bill.id, device: database.device, lineId: bill.lines[0].lineId, quantity: 2, note: "")
        #expect(bill.lines.map(\.quantity) == [2, 1] && bill.lines.allSatisfy { $0.note == nil })
        _ = try TestPostgres.psql(url, oldRaise(bill.id, 475))
        #expect(try database.reopen().bill(id: bill.id)?.lines.map(\.quantity) == [3, 1])
    }
}
