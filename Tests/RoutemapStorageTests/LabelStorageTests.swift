import Foundation
import RoutemapDomain
import RoutemapPostgres
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// Bill labels on a real database (SQLite, or PostgreSQL when `ROUTEMAP_TEST_DATABASE_URL` is
/// set): a bill's label stored with it and read back by this store, another and a reopened one,
/// through naming, renaming, clearing and other changes; migration 0026 over older rows; and,
/// on PostgreSQL, a node on the binary from before 0026 changing a labelled bill without losing
/// its label (why 0026 needs no guard).
@Suite("Bill labels on a real database")
struct LabelStorageTests {
    @Test("a bill's label is stored with it and read back by this store, another and a reopened one, through changes")
    func labelsStored() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let device = database.device
        // On PostgreSQL another node, with a cache of its own; SQLite has one store per file.
        let other = database.url == nil ? database.store : try database.reopen()
        let otherTill = Till(store: other, taxRate: StorageFixtures.rate875, currency: .usd)
        var bill = try await till.openBill(device: device, label: "Table 4")
        let twin = try await otherTill.openBill(device: device, label: "Table 4")
        let plain = try await till.openBill(device: device)
        for store in [database.store, other, try database.reopen()] {
            #expect(try store.bill(id: bill.id) == bill && store.bill(id: twin.id) == twin && store.bill(id: plain.id) == plain)
        }
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        bill = try await otherTill.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        #expect(bill.label == "Table 4" && bill.lines[0].quantity == 2)
        for store in [database.store, other, try database.reopen()] { #expect(try store.bill(id: bill.id) == bill) }
        bill = try await otherTill.setLabel(billId: bill.id, device: device, label: "Sam's tab ✓")
        for store in [database.store, other, try database.reopen()] { #expect(try store.bill(id: bill.id) == bill) }
        bill = try await till.setLabel(billId: bill.id, device: device, label: nil)
        for store in [database.store, other, try database.reopen()] { #expect(try store.bill(id: bill.id) == bill) }
        #expect(bill.label == nil)
        // The longest label, in scalars the database counts as characters; kept through checkout.
        let longest = String(repeating: "é", count: BillLabel.maxCharacters)
        bill = try await till.setLabel(billId: bill.id, device: device, label: longest)
        bill = try await till.checkout(billId: bill.id, device: device)
        bill = try await otherTill.setLabel(billId: bill.id, device: device, label: "Table 5")
        let listed = try database.reopen().unsettledBills(deviceId: device, statuses: [.open, .checkedOut], after: nil, limit: 10)
        #expect(listed.first { $0.id == bill.id } == bill && listed.first { $0.id == twin.id }?.label == "Table 4")
        // Paid: the paid bill keeps its label.
        let paid = try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: bill.totalMinor)).bill
        #expect(try database.reopen().bill(id: bill.id) == paid && paid.label == "Table 5")
    }

    @Test("migration 0026 over a database with bills: they read as before, without labels, and take labels")
    func migration() async throws {
        let older = try await OlderDatabase(before: "0026_pos_bill_labels", rows: OlderDatabase.openBillOfTwoLattes) { old async throws in
            #expect(try old.bill(id: "bill_1")?.label == nil, "a store reads bills before 0026's column exists")
            // A store on the old file opens bills and changes them, as before (their statements name no label).
            let oldTill = Till(store: old, taxRate: TaxRate(basisPoints: 0)!, currency: .usd)
            #expect(try await oldTill.addItem(billId: "bill_1", device: "dev_old", menuItemId: "croissant", quantity: 1).lines.count == 2)
            #expect(try await oldTill.openBill(device: "dev_old").label == nil)
        }
        defer { older.close() }
        let store = older.store
        let kept = try #require(try store.bill(id: "bill_1"))
        #expect(kept.label == nil && kept.lines[0].quantity == 2)
        let till = Till(store: store, taxRate: TaxRate(basisPoints: 0)!, currency: .usd)
        var bill = try await till.setLabel(billId: "bill_1", device: "dev_old", label: "Table 4")
        bill = try await till.addItem(billId: bill.id, device: "dev_old", menuItemId: "latte", quantity: 1)
        #expect(bill.label == "Table 4" && bill.lines.first?.quantity == 3)
        #expect(try store.bill(id: "bill_1") == bill)
        // The database refuses a label no server would write.
        for bad in ["''", "'\(String(repeating: "a", count: 41))'"] {
            #expect(throws: (any Error).self) {
                if let url = older.url {
                    _ = try TestPostgres.psql(url, "UPDATE bills SET label = \(bad) WHERE id = 'bill_1'")
                } else {
                    try (store as! SQLiteStore).onWriter("a bad label") { try $0.execute(sql: "UPDATE bills SET label = \(bad) WHERE id = 'bill_1'") }
                }
            }
        }
    }

    @Test("a node on the binary from before 0026 changes a labelled bill, and the label stays (no guard needed)")
    func oldBinaryKeepsLabel() async throws {
        let database = try await TestDatabase()
        guard let url = database.url else { return }
        // No tax: the old binary's hand-written totals below are the lines' sums.
        let till = database.till(taxRate: TaxRate(basisPoints: 0)!)
        var bill = try await till.openBill(device: database.device, label: "Table 4")
        bill = try await till.addItem(billId: bill.id, device: database.device, menuItemId: "latte", quantity: 1)
        bill = try await till.addItem(billId: bill.id, device: database.device, menuItemId: "croissant", quantity: 1)
        // The old binary's bill writes, as 0025's binary makes them: every column it knows, by name.
        let oldUpdate = { (subtotal: Int64, version: Int, status: String) in
            """
            UPDATE bills SET status = '\(status)', subtotal_minor = \(subtotal), tax_minor = 0, total_minor = \(subtotal),
                version = \(version), updated_at = now(), selected_at = selected_at, void_reason = NULL, voided_at = NULL,
                device_id = device_id, discount_percent_bps = NULL, discount_amount_minor = NULL, discount_reason = NULL,
                discount_minor = 0, discount_version = NULL, paid_minor = 0, notes_version = NULL
            WHERE id = '\(bill.id)' AND version < \(version)
            """
        }
        // Its removal of the croissant (every line rewritten), then its checkout.
        _ = try TestPostgres.psql(url, """
            BEGIN;
            DELETE FROM bill_lines WHERE bill_id = '\(bill.id)';
            INSERT INTO bill_lines (bill_id, position, line_id, menu_item_id, name, quantity, unit_price_minor, modifier_stamp)
            VALUES ('\(bill.id)', 0, '\(bill.lines[0].lineId)', 'latte', 'Latte', 1, 475, 1);
            \(oldUpdate(475, bill.version + 1, "open"));
            COMMIT;
            """)
        _ = try TestPostgres.psql(url, oldUpdate(475, bill.version + 2, "checked_out"))
        let changed = try #require(try database.reopen().bill(id: bill.id))
        #expect(changed.label == "Table 4" && changed.status == .checkedOut && changed.lines.count == 1)
        // The new binary goes on with it: renames it, and pays it.
        let otherTill = Till(store: try database.reopen(), taxRate: TaxRate(basisPoints: 0)!, currency: .usd)
        bill = try await otherTill.setLabel(billId: bill.id, device: database.device, label: "Table 5")
        let paid = try await otherTill.pay(billId: bill.id, device: database.device, PaymentRequest(method: .cash, amountMinor: 475)).bill
        let reread = try database.reopen().bill(id: bill.id)
        #expect(paid.label == "Table 5" && reread == paid)
    }
}
