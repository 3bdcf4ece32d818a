import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

/// Stock counts: a counted item sells while its count is above 0; the payment that makes a bill
/// paid takes its counted items off the counts (only that one, and only counted items); voids
/// and refused adds change nothing.
@Suite("Stock counts: sold out at 0, taken off by the completing payment")
struct StockTests {
    /// Croissants counted (2 left), muffins counted and sold out, lattes not counted.
    let store = InMemoryStore(menu: [
        Fixtures.latte, Fixtures.item("croissant", price: 350, category: "bakery", stock: 2),
        Fixtures.item("muffin", price: 300, category: "bakery", stock: 0),
    ])
    let device = Fixtures.device
    let counted: Set<String> = ["croissant", "muffin"]

    private var till: Till { Till(store: store, taxRate: Fixtures.rate875, currency: .usd) }

    private func stock(_ id: String) -> Int? { store.snapshot.menu.first { $0.id == id }?.stock }

    @Test("a counted item at 0 or below is sold out; an uncounted one never is; unavailable comes first")
    func sellableRule() throws {
        #expect(!Fixtures.item("a", price: 1).isSoldOut && !Fixtures.item("a", price: 1).isCounted)
        #expect(!Fixtures.item("a", price: 1, stock: 1).isSoldOut)
        #expect(Fixtures.item("a", price: 1, stock: 0).isSoldOut && Fixtures.item("a", price: 1, stock: -3).isSoldOut)
        var bill = Fixtures.bill()
        #expect(throws: POSError.menuItemSoldOut("a")) { try bill.add(Fixtures.item("a", price: 1, stock: 0), quantity: 1) }
        #expect(throws: POSError.menuItemUnavailable("a")) {
            try bill.add(Fixtures.item("a", price: 1, available: false, stock: 0), quantity: 1)
        }
        #expect(bill.lines.isEmpty)
        // Not reserved: a count of 1 lets a bill take 5.
        try bill.add(Fixtures.item("a", price: 1, stock: 1), quantity: 5, newLineId: "line_a")
        #expect(bill.lines[0].quantity == 5)
    }

    @Test("adding or raising a sold-out item is refused and changes nothing; lowering it is allowed")
    func refusedAdd() async throws {
        let bill = try await till.openBill(device: device)
        await #expect(throws: POSError.menuItemSoldOut("muffin")) {
            try await till.addItem(billId: bill.id, device: device, menuItemId: "muffin", quantity: 1)
        }
        let line = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 2).lines[0]
        _ = try await till.changeMenuItem(id: "croissant", MenuItemPatch(stock: .some(0)), device: device, idempotency: nil)
        let before = try till.bill(id: bill.id, device: device)
        await #expect(throws: POSError.menuItemSoldOut("croissant")) {
            try await till.setQuantity(billId: bill.id, device: device, lineId: line.lineId, quantity: 3)
        }
        #expect(try till.bill(id: bill.id, device: device) == before)
        #expect(try await till.setQuantity(billId: bill.id, device: device, lineId: line.lineId, quantity: 1).lines[0].quantity == 1)
    }

    @Test("paying takes the bill's counted quantities off, all lines of an item together, and may go below 0")
    func payDecrements() async throws {
        let bill = try await till.openBill(device: device)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 2)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 1, note: "warm")
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        let checkedOut = try await till.checkout(billId: bill.id, device: device)
        let revision = store.snapshot.menuRevision
        _ = try await till.pay(
            billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: checkedOut.totalMinor), countedItems: counted)
        #expect(stock("croissant") == -1, "2 on the shelf, 3 sold: the count was wrong, and shows it")
        #expect(stock("latte") == nil && stock("muffin") == 0)
        #expect(store.snapshot.stockStatements == 1 && store.snapshot.menuRevision > revision)
    }

    @Test("a bill of uncounted items pays with no stock write")
    func uncountedPaysWithoutWrite() async throws {
        let bill = try await till.openBill(device: device)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 2)
        let checkedOut = try await till.checkout(billId: bill.id, device: device)
        let revision = store.snapshot.menuRevision
        _ = try await till.pay(
            billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: checkedOut.totalMinor), countedItems: counted)
        #expect(store.snapshot.stockStatements == 0 && store.snapshot.menuRevision == revision)
    }

    @Test("split tender: only the payment that completes the bill takes the count")
    func splitTender() async throws {
        let bill = try await till.openBill(device: device)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 2)
        let checkedOut = try await till.checkout(billId: bill.id, device: device)
        _ = try await till.pay(
            billId: bill.id, device: device, try PaymentRequest(method: .card, amountMinor: 100, tipMinor: 0, partial: true),
            countedItems: counted)
        #expect(stock("croissant") == 2 && store.snapshot.stockStatements == 0)
        let outcome = try await till.pay(
            billId: bill.id, device: device, PaymentRequest(method: .cash, amountMinor: checkedOut.totalMinor - 100),
            countedItems: counted)
        #expect(outcome.bill.status == .paid)
        #expect(stock("croissant") == 0 && store.snapshot.stockStatements == 1)
        #expect(outcome.bill.stockSold(countedItems: counted) == ["croissant": 2])
    }

    @Test("voiding a bill of counted items sells nothing")
    func voidKeepsTheCount() async throws {
        let bill = try await till.openBill(device: device)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 2)
        _ = try await till.void(billId: bill.id, device: device, reason: "Changed their mind", idempotency: nil)
        #expect(stock("croissant") == 2 && store.snapshot.stockStatements == 0)
    }

    @Test("a manager sets a count (0 to 100000), stops counting with null, and leaving it out keeps it")
    func setting() async throws {
        let changed = try await performed(till.changeMenuItem(id: "latte", MenuItemPatch(stock: .some(12)), device: device, idempotency: nil))
        #expect(changed.stock == 12 && stock("latte") == 12)
        _ = try await till.changeMenuItem(id: "latte", MenuItemPatch(priceMinor: 500), device: device, idempotency: nil)
        #expect(stock("latte") == 12)
        _ = try await till.changeMenuItem(id: "latte", MenuItemPatch(stock: .some(nil)), device: device, idempotency: nil)
        #expect(stock("latte") == nil)
        await #expect(throws: InvalidInput(field: "stock", rule: "from 0 to 100000, or null")) {
            try await till.changeMenuItem(id: "latte", MenuItemPatch(stock: .some(100_001)), device: device, idempotency: nil)
        }
        await #expect(throws: InvalidInput(field: "stock", rule: "from 0 to 100000, or null")) {
            try await till.createMenuItem(
                MenuItemDraft(id: "scone", name: "Scone", category: "bakery", priceMinor: 300, stock: -1), device: device, idempotency: nil)
        }
        let scone = try await performed(
            till.createMenuItem(
                MenuItemDraft(id: "scone", name: "Scone", category: "bakery", priceMinor: 300, stock: 6), device: device, idempotency: nil))
        #expect(scone.stock == 6 && stock("scone") == 6)
    }

    private func performed<T>(_ outcome: IdempotentOutcome<T>) throws -> T {
        guard case .performed(let value, _) = outcome else { throw InvariantViolation("replayed") }
        return value
    }
}
