import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

@Suite("Till use cases over an in-memory store")
struct TillTests {
    let store = InMemoryStore(menu: Fixtures.menu)
    let device = Fixtures.device

    private func till(
        taxRate: TaxRate = Fixtures.rate875, now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_700_000_000.123_456) }
    ) -> Till {
        Till(store: store, taxRate: taxRate, currency: .usd, now: now)
    }

    @Test("open bill: empty, open, version 1, the till's rate and currency, a bill_ id, time to the millisecond")
    func openBill() async throws {
        let bill = try await till().openBill(device: device)
        #expect(bill.id.hasPrefix("bill_") && bill.id.count == 27)
        #expect(bill.status == .open)
        #expect(bill.version == 1)
        #expect(bill.taxRate == Fixtures.rate875)
        #expect(bill.currency == .usd)
        #expect(bill.createdAt == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(bill.deviceId == device)
        #expect(try till().bill(id: bill.id, device: device) == bill)
    }

    @Test("current bill is created once, then the same until paid; then the next bill")
    func currentBill() async throws {
        let till = till()
        let first = try await till.currentBill(device: device)
        #expect(try await till.currentBill(device: device) == first)
        #expect(store.snapshot.bills.count == 1)
        _ = try await till.addItem(billId: first.id, device: device, menuItemId: "latte", quantity: 1)
        let checkedOut = try await till.checkout(billId: first.id, device: device)
        #expect(try await till.currentBill(device: device) == checkedOut)
        let outcome = try await till.pay(billId: first.id, device: device, PaymentRequest(method: .card, amountMinor: checkedOut.totalMinor))
        #expect(try await till.currentBill(device: device) == outcome.nextBill)
        #expect(store.snapshot.bills.count == 2)
    }

    @Test("set quantity: raising an item made unavailable or retired is refused as adding it is; lowering is not")
    func setQuantityFollowsTheMenu() async throws {
        let till = till()
        let bill = try await till.openBill(device: device)
        let line = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 3).lines[0]
        _ = try await till.changeMenuItem(id: "latte", MenuItemPatch(available: false), device: device, idempotency: nil)
        await #expect(throws: POSError.menuItemUnavailable("latte")) {
            try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        }
        await #expect(throws: POSError.menuItemUnavailable("latte")) {
            try await till.setQuantity(billId: bill.id, device: device, lineId: line.lineId, quantity: 6)
        }
        #expect(try till.bill(id: bill.id, device: device).lines[0].quantity == 3)
        #expect(try await till.setQuantity(billId: bill.id, device: device, lineId: line.lineId, quantity: 2).lines[0].quantity == 2)

        _ = try await till.retireMenuItem(id: "latte", device: device, idempotency: nil)
        await #expect(throws: POSError.unknownMenuItem("latte")) {
            try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        }
        await #expect(throws: POSError.unknownMenuItem("latte")) {
            try await till.setQuantity(billId: bill.id, device: device, lineId: line.lineId, quantity: 40)
        }
        let lowered = try await till.setQuantity(billId: bill.id, device: device, lineId: line.lineId, quantity: 1)
        #expect(lowered.lines.map(\.quantity) == [1])
        #expect(lowered.lines[0].unitPriceMinor == 475)
        #expect(try await till.removeLine(billId: bill.id, device: device, lineId: line.lineId).lines.isEmpty)
    }

    @Test("add item: unknown, unavailable, and captured name and price")
    func addItem() async throws {
        let till = till()
        let bill = try await till.openBill(device: device)
        await #expect(throws: POSError.unknownMenuItem("unicorn")) {
            try await till.addItem(billId: bill.id, device: device, menuItemId: "unicorn", quantity: 1)
        }
        await #expect(throws: POSError.menuItemUnavailable("pumpkin-spice-latte")) {
            try await till.addItem(billId: bill.id, device: device, menuItemId: "pumpkin-spice-latte", quantity: 1)
        }
        let changed = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 2)
        #expect(changed.lines.map(\.name) == ["Latte"])
        #expect(changed.lines.map(\.unitPriceMinor) == [475])
        #expect(changed.lines[0].lineId.hasPrefix("line_"))
        #expect(changed.version == 2)
        #expect(try till.bill(id: bill.id, device: device) == changed)
    }

    @Test("a bill that is not open reports that before looking up the menu item")
    func statusBeforeItem() async throws {
        let till = till()
        let bill = try await till.openBill(device: device)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        _ = try await till.checkout(billId: bill.id, device: device)
        await #expect(throws: POSError.billNotOpen(.checkedOut)) {
            try await till.addItem(billId: bill.id, device: device, menuItemId: "unicorn", quantity: 1)
        }
    }

    @Test("every bill operation reports an unknown bill")
    func billNotFound() async {
        let till = till()
        let missing = POSError.billNotFound("bill_missing")
        #expect(throws: missing) { try till.bill(id: "bill_missing", device: device) }
        await #expect(throws: missing) { try await till.addItem(billId: "bill_missing", device: device, menuItemId: "latte", quantity: 1) }
        await #expect(throws: missing) { try await till.setQuantity(billId: "bill_missing", device: device, lineId: "l", quantity: 1) }
        await #expect(throws: missing) { try await till.removeLine(billId: "bill_missing", device: device, lineId: "l") }
        await #expect(throws: missing) { try await till.checkout(billId: "bill_missing", device: device) }
        await #expect(throws: missing) { try await till.cancelCheckout(billId: "bill_missing", device: device) }
        await #expect(throws: missing) { try await till.pay(billId: "bill_missing", device: device, PaymentRequest(method: .card, amountMinor: 0)) }
    }

    @Test("a refused change saves nothing")
    func refusedChangeSavesNothing() async throws {
        let till = till()
        let bill = try await till.openBill(device: device)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 998)
        let before = store.snapshot.bills
        await #expect(throws: POSError.lineQuantityLimit(quantity: 1_000, limit: 999)) {
            try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 2)
        }
        await #expect(throws: POSError.billEmpty) { try await till.checkout(billId: try await till.openBill(device: device).id, device: device) }
        #expect(store.snapshot.bills.filter { $0.key == bill.id } == before.filter { $0.key == bill.id })
    }

    @Test("pay: records the payment, marks the bill paid and opens the next bill, at the bill's total")
    func pay() async throws {
        let till = till()
        let bill = try await till.openBill(device: device)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 2)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 1)
        let checkedOut = try await till.checkout(billId: bill.id, device: device)
        #expect(checkedOut.totalMinor == 1_300 + 114)  // 950 → 83.125 → 83; 350 → 30.625 → 31
        let outcome = try await till.pay(
            billId: bill.id, device: device,
            PaymentRequest(method: .cash, amountMinor: checkedOut.totalMinor, tenderedMinor: 2_000))
        #expect(outcome.payment.id.hasPrefix("pay_"))
        #expect(outcome.payment.changeMinor == 2_000 - 1_414)
        #expect(outcome.bill.status == .paid)
        #expect(outcome.bill.version == checkedOut.version + 1)
        #expect(outcome.nextBill.status == .open)
        #expect(outcome.nextBill.lines.isEmpty)
        #expect(outcome.nextBill.id != bill.id)
        #expect(outcome.nextBill.deviceId == device)
        #expect(store.snapshot.payments == [outcome.payment])
        #expect(try till.bill(id: bill.id, device: device) == outcome.bill)
        await #expect(throws: POSError.billNotCheckedOut(.paid)) {
            try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: checkedOut.totalMinor))
        }
    }

    @Test("a refused payment changes nothing")
    func refusedPayment() async throws {
        let till = till()
        let bill = try await till.openBill(device: device)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        let checkedOut = try await till.checkout(billId: bill.id, device: device)
        await #expect(throws: POSError.insufficientTender(chargedMinor: 517, tenderedMinor: 500)) {
            try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .cash, amountMinor: 517, tenderedMinor: 500))
        }
        #expect(try till.bill(id: bill.id, device: device) == checkedOut)
        #expect(store.snapshot.payments.isEmpty)
        #expect(store.snapshot.bills.count == 1)
    }

    @Test("a bill keeps the rate it was opened with, whatever the till's rate later")
    func rateKept() async throws {
        let bill = try await till(taxRate: Fixtures.rate875).openBill(device: device)
        let later = till(taxRate: TaxRate(basisPoints: 2_000)!)
        let changed = try await later.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        #expect(changed.taxRate == Fixtures.rate875)
        #expect(changed.taxMinor == 42)
        #expect(try await later.openBill(device: device).taxRate.basisPoints == 2_000)
    }

    @Test("set quantity, remove line, cancel checkout through the till")
    func edits() async throws {
        let till = till()
        let bill = try await till.openBill(device: device)
        let withLine = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        let lineId = withLine.lines[0].lineId
        #expect(try await till.setQuantity(billId: bill.id, device: device, lineId: lineId, quantity: 3).lines[0].quantity == 3)
        _ = try await till.checkout(billId: bill.id, device: device)
        await #expect(throws: POSError.billNotOpen(.checkedOut)) { try await till.removeLine(billId: bill.id, device: device, lineId: lineId) }
        #expect(try await till.cancelCheckout(billId: bill.id, device: device).status == .open)
        let removed = try await till.removeLine(billId: bill.id, device: device, lineId: lineId)
        #expect(removed.lines.isEmpty)
        #expect(removed.version == 6)
        await #expect(throws: POSError.lineNotFound(lineId)) { try await till.removeLine(billId: bill.id, device: device, lineId: lineId) }
    }

    @Test("menu and health pass through to the store")
    func menuAndHealth() throws {
        #expect(try till().menu() == Fixtures.menu)
        try till().checkHealth()
    }
}
