import Foundation
import RoutemapDomain
import RoutemapPostgres
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// Stock counts on a real database (SQLite, or PostgreSQL when `ROUTEMAP_TEST_DATABASE_URL` is
/// set): a count set, changed and cleared, read back by this store, another and a reopened one;
/// taken off in the paying transaction (and rolled back with it); no write for a bill of uncounted
/// items; migration 0027 over older items.
@Suite("Stock counts on a real database")
struct StockStorageTests {
    @Test("a count is stored with the item and read back by this store, another and a reopened one; null stops counting")
    func roundTrip() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let device = database.device
        let other = database.url == nil ? database.store : try database.reopen()
        _ = try await till.createMenuItem(
            MenuItemDraft(id: "scone", name: "Scone", category: "bakery", priceMinor: 300, stock: 6), device: device, idempotency: nil)
        for store in [database.store, other, try database.reopen()] {
            #expect(try store.menuItems().first { $0.id == "scone" }?.stock == 6)
            #expect(try store.menuItems().first { $0.id == "latte" }?.stock == nil)
        }
        _ = try await till.changeMenuItem(id: "croissant", MenuItemPatch(stock: .some(12)), device: device, idempotency: nil)
        _ = try await till.changeMenuItem(id: "croissant", MenuItemPatch(priceMinor: 360), device: device, idempotency: nil)
        for store in [database.store, other, try database.reopen()] {
            #expect(try store.menuItems().first { $0.id == "croissant" }.map { ($0.stock, $0.priceMinor) } ?? (nil, 0) == (12, 360))
        }
        _ = try await till.changeMenuItem(id: "croissant", MenuItemPatch(stock: .some(nil)), device: device, idempotency: nil)
        for store in [database.store, other, try database.reopen()] {
            #expect(try store.menuItems().first { $0.id == "croissant" }?.stock == nil)
        }
    }

    @Test("paying takes counted items off in the paying transaction: the revision moves, adds see 0 at once, a failed payment takes nothing")
    func paying() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let device = database.device
        _ = try await till.changeMenuItem(id: "croissant", MenuItemPatch(stock: .some(2)), device: device, idempotency: nil)
        let counted: Set<String> = ["croissant"]

        // Uncounted items only: the menu is not written (its revision, bumped by any write, stays).
        var plain = try await till.openBill(device: device)
        plain = try await till.addItem(billId: plain.id, device: device, menuItemId: "latte", quantity: 2)
        plain = try await till.checkout(billId: plain.id, device: device)
        let before = try database.store.menuRevision()
        _ = try await till.pay(billId: plain.id, device: device, PaymentRequest(method: .card, amountMinor: plain.totalMinor), countedItems: counted)
        #expect(try database.store.menuRevision() == before)

        // A payment that fails after taking the count: nothing of it stays.
        var bill = try await till.openBill(device: device)
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 2)
        bill = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        bill = try await till.checkout(billId: bill.id, device: device)
        let failing = Till(store: FailingPaymentStore(base: database.store, failure: .afterStock), taxRate: StorageFixtures.rate875, currency: .usd)
        await #expect(throws: FailingPaymentStore.InjectedFailure()) {
            try await failing.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: bill.totalMinor), countedItems: counted)
        }
        #expect(try database.store.menuItems().first { $0.id == "croissant" }?.stock == 2)
        #expect(try database.store.bill(id: bill.id)?.status == .checkedOut)

        let paid = try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: bill.totalMinor), countedItems: counted)
        #expect(paid.bill.status == .paid)
        for store in [database.store, try database.reopen()] {
            #expect(try store.menuItems().first { $0.id == "croissant" }?.stock == 0)
            #expect(try store.menuItems().first { $0.id == "latte" }?.stock == nil)
            #expect(try store.menuRevision() > before)
        }
        // The store's own add sees the new count at once: sold out.
        let next = try await till.openBill(device: device)
        await #expect(throws: POSError.menuItemSoldOut("croissant")) {
            try await till.addItem(billId: next.id, device: device, menuItemId: "croissant", quantity: 1)
        }
        #expect(try database.store.bill(id: next.id)?.lines.isEmpty == true)
    }

    @Test("migration 0027 over a database with items: none is counted; the database refuses a count above 100000")
    func migration() async throws {
        let database = try await TestDatabase()
        #expect(try database.store.menuItems().allSatisfy { $0.stock == nil })
        #expect(throws: (any Error).self) {
            if let url = database.url {
                _ = try TestPostgres.psql(url, "UPDATE menu_items SET stock = 100001 WHERE id = 'latte'")
            } else {
                try database.sqlite.onWriter("a count too large") { try $0.execute(sql: "UPDATE menu_items SET stock = 100001 WHERE id = 'latte'") }
            }
        }
        // Below 0 is allowed: what selling more than the count leaves.
        if let url = database.url {
            _ = try TestPostgres.psql(url, "UPDATE menu_items SET stock = -3 WHERE id = 'latte'")
        } else {
            try database.sqlite.onWriter("a count below 0") { try $0.execute(sql: "UPDATE menu_items SET stock = -3 WHERE id = 'latte'") }
        }
        #expect(try database.reopen().menuItems().first { $0.id == "latte" }?.stock == -3)
    }
}
