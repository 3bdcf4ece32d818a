import Foundation
import RoutemapDomain
import RoutemapPostgres
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// Modifiers on a real database (SQLite, or PostgreSQL when `ROUTEMAP_TEST_DATABASE_URL` is set):
/// an item's groups stored and replaced, a line's options stored with it and read back by this
/// store, another and a reopened one, kept through line rewrites; migration 0023 over older
/// rows; and PostgreSQL's guard against a node that does not know modifiers.
@Suite("Modifiers on a real database")
struct ModifierStorageTests {
    static let milk = ModifierGroup(
        id: "milk", name: "Milk", minChoices: 0, maxChoices: 1,
        options: [ModifierOption(id: "oat", name: "Oat", priceMinor: 50), ModifierOption(id: "almond", name: "Almond", priceMinor: 55)])
    static let extras = ModifierGroup(
        id: "extras", name: "Extras", minChoices: 0, maxChoices: 2,
        options: [ModifierOption(id: "shot", name: "Extra shot", priceMinor: 60), ModifierOption(id: "vanilla", name: "Vanilla syrup", priceMinor: 40)])

    /// `sql` run as it is, outside the stores' code.
    private static func execute(_ database: TestDatabase, _ sql: String) throws {
        if let url = database.url {
            _ = try TestPostgres.psql(url, sql)
        } else {
            try database.sqlite.onWriter("writing rows by hand") { try $0.execute(sql: sql) }
        }
    }

    /// Gives the demo latte the milk and extras groups, as a manager does.
    private static func modifyLatte(_ till: Till, _ groups: [ModifierGroup] = [milk, extras]) async throws {
        _ = try await till.changeMenuItem(id: "latte", MenuItemPatch(modifierGroups: groups), device: "dev_manager", idempotency: nil)
            .performedWithoutKey()
    }

    @Test("groups are stored in order with their options, read by every store; replacing them moves the menu's revision and touches no bill")
    func groupsStored() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let revision = try database.store.menuRevision()
        try await Self.modifyLatte(till)
        #expect(try database.store.menuRevision() != revision)
        for store in [database.store, try database.reopen()] {
            let latte = try #require(try store.menuItems().first { $0.id == "latte" })
            #expect(latte.modifierGroups == [Self.milk, Self.extras])
            #expect(try store.menuItems().filter { $0.id != "latte" }.allSatisfy { $0.modifierGroups.isEmpty })
        }
        // A new item with groups, then the latte's replaced by one group and then none.
        _ = try await till.createMenuItem(
            MenuItemDraft(id: "mocha", name: "Mocha", category: "coffee", priceMinor: 500, modifierGroups: [Self.extras, Self.milk]),
            device: "dev_manager", idempotency: nil)
        var bill = try await till.addItem(billId: try await till.openBill(device: database.device).id, device: database.device, menuItemId: "latte", quantity: 1, modifiers: ["oat"])
        try await Self.modifyLatte(till, [Self.extras])
        let replacedRevision = try database.store.menuRevision()
        try await Self.modifyLatte(till, [])
        #expect(try database.store.menuRevision() != replacedRevision)
        let reopened = try database.reopen()
        #expect(try reopened.menuItems().first { $0.id == "latte" }?.modifierGroups == [])
        #expect(try reopened.menuItems().first { $0.id == "mocha" }?.modifierGroups == [Self.extras, Self.milk])
        #expect(try database.store.rowCount(in: "menu_modifier_options") == 4)
        // The bill keeps the oat its line was added with.
        #expect(try reopened.bill(id: bill.id) == bill && bill.lines[0].modifiers.map(\.name) == ["Oat"])
        // With the latte's milk gone, an add naming oat is refused, and a plain one merges nowhere.
        await #expect(throws: POSError.unknownModifier(menuItemId: "latte", optionId: "oat")) {
            _ = try await till.addItem(billId: bill.id, device: database.device, menuItemId: "latte", quantity: 1, modifiers: ["oat"])
        }
        bill = try await till.addItem(billId: bill.id, device: database.device, menuItemId: "latte", quantity: 1)
        #expect(bill.lines.map(\.quantity) == [1, 1] && bill.lines[1].modifiers.isEmpty)
    }

    @Test("a line's options are stored with it and read back whole by this store, another and a reopened one, through merges and removals")
    func linesStored() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let device = database.device
        try await Self.modifyLatte(till)
        // On PostgreSQL another node, with a cache of its own; SQLite has one store per file.
        let other = database.url == nil ? database.store : try database.reopen()
        let otherTill = Till(store: other, taxRate: StorageFixtures.rate875, currency: .usd)
        var bill = try await till.openBill(device: device)
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 1)
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1, modifiers: ["vanilla", "oat"])
        bill = try await otherTill.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1, modifiers: ["oat", "vanilla"])
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        #expect(bill.lines.map(\.quantity) == [1, 2, 1])
        #expect(bill.lines[1].modifiers == [
            BillLineModifier(optionId: "oat", name: "Oat", priceMinor: 50), BillLineModifier(optionId: "vanilla", name: "Vanilla syrup", priceMinor: 40),
        ])
        #expect(bill.lines[1].unitPriceMinor == 565)
        for store in [database.store, other, try database.reopen()] { #expect(try store.bill(id: bill.id) == bill) }
        // Removing the line before it rewrites the lines: the options stay with theirs.
        bill = try await otherTill.removeLine(billId: bill.id, device: device, lineId: bill.lines[0].lineId)
        for store in [database.store, other, try database.reopen()] { #expect(try store.bill(id: bill.id) == bill) }
        #expect(bill.lines.first?.modifiers.count == 2)
        // Removing it leaves none behind.
        bill = try await till.removeLine(billId: bill.id, device: device, lineId: bill.lines[0].lineId)
        for store in [database.store, other, try database.reopen()] { #expect(try store.bill(id: bill.id) == bill) }
        #expect(try database.store.rowCount(in: "bill_line_modifiers") == 0)
        // Paid: the receipt and the listing of bills carry them too.
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1, modifiers: ["almond", "shot"])
        let listed = try database.reopen().unsettledBills(deviceId: device, statuses: [.open], after: nil, limit: 10)
        #expect(listed.first { $0.id == bill.id } == bill)
        _ = try await till.checkout(billId: bill.id, device: device)
        let paid = try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: bill.totalMinor)).bill
        #expect(try database.reopen().bill(id: bill.id) == paid && paid.lines.last?.modifiers.map(\.optionId) == ["almond", "shot"])
    }

    @Test("migration 0023 over a database with bills: their lines read as before, without modifiers, and take new ones")
    func migration() async throws {
        let older = try await OlderDatabase(before: "0023_pos_modifiers", rows: OlderDatabase.openBillOfTwoLattes) { old async throws in
            #expect(try old.bill(id: "bill_1")?.lines.count == 1, "a store reads bills before 0023's tables exist")
        }
        defer { older.close() }
        let store = older.store
        let kept = try #require(try store.bill(id: "bill_1"))
        #expect(kept.lines.map(\.quantity) == [2] && kept.lines[0].modifiers.isEmpty && kept.totalMinor == 950)
        #expect(try store.menuItems().allSatisfy { $0.modifierGroups.isEmpty }, "0023 adds no demo modifiers")
        let till = Till(store: store, taxRate: TaxRate(basisPoints: 0)!, currency: .usd)
        try await Self.modifyLatte(till)
        // The old plain line is raised by a plain latte (on PostgreSQL by a new binary's update of
        // a line written before 0023); an oat latte is a line of its own.
        var bill = try await till.addItem(billId: "bill_1", device: "dev_old", menuItemId: "latte", quantity: 1)
        bill = try await till.addItem(billId: bill.id, device: "dev_old", menuItemId: "latte", quantity: 1, modifiers: ["oat"])
        #expect(bill.lines.map(\.quantity) == [3, 1] && bill.totalMinor == 3 * 475 + 525)
        #expect(try store.bill(id: "bill_1") == bill)
    }

    @Test("a node on the binary from before 0023 cannot raise or rewrite a line with options (PostgreSQL's trigger); it can change others")
    func oldBinaryRefused() async throws {
        let database = try await TestDatabase()
        guard let url = database.url else { return }
        // No tax: the old binary's hand-written totals below are the lines' sums.
        let till = database.till(taxRate: TaxRate(basisPoints: 0)!)
        try await Self.modifyLatte(till)
        var bill = try await till.openBill(device: database.device)
        bill = try await till.addItem(billId: bill.id, device: database.device, menuItemId: "latte", quantity: 1, modifiers: ["oat"])
        bill = try await till.addItem(billId: bill.id, device: database.device, menuItemId: "croissant", quantity: 1)
        // The old binary's merge of a plain latte into the first latte line: its quantity alone.
        let oldRaise = { (position: Int, price: Int64) in
            """
            BEGIN;
            UPDATE bill_lines SET quantity = quantity + 1 WHERE bill_id = '\(bill.id)' AND position = \(position);
            UPDATE bills SET subtotal_minor = subtotal_minor + \(price), total_minor = total_minor + \(price), version = version + 1
            WHERE id = '\(bill.id)';
            COMMIT;
            """
        }
        #expect(throws: (any Error).self) { try TestPostgres.psql(url, oldRaise(0, 525)) }
        // The old binary's removal of the croissant: every line deleted, the others inserted again.
        let oldRewrite = """
            BEGIN;
            DELETE FROM bill_lines WHERE bill_id = '\(bill.id)';
            INSERT INTO bill_lines (bill_id, position, line_id, menu_item_id, name, quantity, unit_price_minor)
            VALUES ('\(bill.id)', 0, '\(bill.lines[0].lineId)', 'latte', 'Latte', 1, 525);
            UPDATE bills SET subtotal_minor = 525, total_minor = 525, version = version + 1 WHERE id = '\(bill.id)';
            COMMIT;
            """
        #expect(throws: (any Error).self) { try TestPostgres.psql(url, oldRewrite) }
        #expect(try database.reopen().bill(id: bill.id) == bill)
        // Positive control: the same raise of the croissant's line (no options) passes.
        _ = try TestPostgres.psql(url, oldRaise(1, 350))
        let raised = try #require(try database.reopen().bill(id: bill.id))
        #expect(raised.lines.map(\.quantity) == [1, 2] && raised.lines[0].modifiers.count == 1 && raised.totalMinor == 525 + 700)
        // And the new binary goes on changing the line with options (another node: this one's
        // cache holds the bill from before the old binary's write).
        let otherTill = Till(store: try database.reopen(), taxRate: TaxRate(basisPoints: 0)!, currency: .usd)
        bill = try await otherTill.setQuantity(billId: bill.id, device: database.device, lineId: bill.lines[0].lineId, quantity: 3)
        #expect(bill.lines.map(\.quantity) == [3, 2])
        #expect(try database.reopen().bill(id: bill.id) == bill)
    }
}
