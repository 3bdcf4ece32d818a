import Foundation
import RoutemapDomain

/// A day of a shop for the sales report's tests, rung up through the till on any store (the
/// in-memory one, SQLite, PostgreSQL), with a clock the scenario sets, and the report it must
/// give. The menu needs `latte` (475), `croissant` (350) and `espresso` (300); taxes at 8.75 %.
///
/// The period is [t0 + 100 s, t0 + 200 s). On `device`:
/// - D (espresso, cash, tip 40) paid 1 ms before `from`: out;
/// - A (2 lattes, card: 950 + 83 = 1033, tip 50: tendered 1083) paid exactly at `from`: in;
/// - B (croissant and espresso, cash 1000 for 650 + 31 + 26 = 707 and a tip of 100, change 193)
///   paid at from + 10 s;
/// - E (a latte, 475 + 42 = 517) voided at from + 20 s: in the voids;
/// - the latte renamed "Latte (large)" at from + 30 s, then I (one, card: 517) paid at from + 40 s,
///   so the item's name is the latest paid line's;
/// - C (a latte, card, tip 70) paid exactly at `to`, and F (an espresso) voided exactly at `to`: out.
/// Refunds, made by `device` acting as a manager (the domain takes the caller's role as given):
/// - of D, 100 cash, 1 ms before `from`: out;
/// - of A, 33 card, exactly at `from`: in;
/// - of B, 200 cash, and of A again, 100 card, at from + 50 s: in (card 2 for 133, cash 1 for 200);
/// - of C, 60 card, exactly at `to`: out.
/// Tips are not sales: the takings' amounts and the sales leave them out; card 1 for 50, cash 1
/// for 100.
/// On `otherDevice`: G (a croissant, checked out: 381) and H (an espresso, open), unsettled.
public struct SalesScenario {
    public let period: SalesPeriod
    /// The report's expected figures, except `unsettled.open`, which counts the devices' empty
    /// next bills too (read from the store: ``openBills``).
    public let expected: SalesFigures
    /// How many bills are open now, counted by listing each device's.
    public let openBills: Int

    /// Rings the scenario up through `till`, whose clock is `clock` (set by the scenario).
    public static func ringUp(till: Till, clock: TestClock, device: String, otherDevice: String) async throws -> SalesScenario {
        let t0 = clock.now
        let from = t0.addingTimeInterval(100), to = t0.addingTimeInterval(200)
        func at(_ date: Date) { clock.advance(by: date.timeIntervalSince(clock.now)) }
        func bill(_ items: [(String, Int)], on owner: String = device, checkout: Bool) async throws -> Bill {
            var bill = try await till.openBill(device: owner)
            for (item, quantity) in items {
                bill = try await till.addItem(billId: bill.id, device: owner, menuItemId: item, quantity: quantity)
            }
            return checkout ? try await till.checkout(billId: bill.id, device: owner) : bill
        }
        func pay(_ bill: Bill, _ method: PaymentMethod, tendered: Int64? = nil, tip: Int64 = 0) async throws {
            let request = try PaymentRequest(method: method, amountMinor: bill.totalMinor, tenderedMinor: tendered, tipMinor: tip)
            _ = try await till.pay(billId: bill.id, device: device, request)
        }
        func refund(_ bill: Bill, _ amount: Int64) async throws {
            let manager = BillCaller(deviceId: device, role: .manager)
            _ = try await till.refund(billId: bill.id, amountMinor: amount, reason: "returned", caller: manager, idempotency: nil).performedWithoutKey()
        }

        let a = try await bill([("latte", 2)], checkout: true)
        let b = try await bill([("croissant", 1), ("espresso", 1)], checkout: true)
        let c = try await bill([("latte", 1)], checkout: true)
        let d = try await bill([("espresso", 1)], checkout: true)
        let e = try await bill([("latte", 1)], checkout: false)
        let f = try await bill([("espresso", 1)], checkout: false)
        let g = try await bill([("croissant", 1)], on: otherDevice, checkout: true)
        _ = try await bill([("espresso", 1)], on: otherDevice, checkout: false)

        at(from.addingTimeInterval(-0.001))
        try await pay(d, .cash, tip: 40)
        try await refund(d, 100)
        at(from)
        try await pay(a, .card, tip: 50)
        try await refund(a, 33)
        at(from.addingTimeInterval(10))
        try await pay(b, .cash, tendered: 1000, tip: 100)
        at(from.addingTimeInterval(20))
        _ = try await till.void(billId: e.id, device: device, reason: "customer left", idempotency: nil)
        at(from.addingTimeInterval(30))
        _ = try await till.changeMenuItem(id: "latte", MenuItemPatch(name: "Latte (large)"), device: device, idempotency: nil)
        let i = try await bill([("latte", 1)], checkout: true)
        at(from.addingTimeInterval(40))
        try await pay(i, .card)
        at(from.addingTimeInterval(50))
        try await refund(b, 200)
        try await refund(a, 100)
        at(to)
        try await pay(c, .card, tip: 70)
        try await refund(c, 60)
        _ = try await till.void(billId: f.id, device: device, reason: "mistake", idempotency: nil)
        at(to.addingTimeInterval(5))

        let croissant = try requireName(b, "croissant"), espresso = try requireName(b, "espresso")
        var openBills = 0
        for owner in [device, otherDevice] {
            openBills += try till.bills(device: owner, statuses: [.open], after: nil, limit: 100).bills.count
        }
        let expected = SalesFigures(
            card: SalesReport.Takings(count: 2, amountMinor: 1033 + 517, tenderedMinor: 1033 + 50 + 517, changeMinor: 0),
            cash: SalesReport.Takings(count: 1, amountMinor: 707, tenderedMinor: 1000, changeMinor: 1000 - 707 - 100),
            sales: SalesReport.Sales(
                bills: 3, subtotalMinor: 950 + 650 + 475, taxMinor: 83 + 57 + 42, totalMinor: 1033 + 707 + 517,
                items: [
                    SalesReport.ItemSales(menuItemId: "latte", name: "Latte (large)", quantity: 3, amountMinor: 1425),
                    SalesReport.ItemSales(menuItemId: "croissant", name: croissant, quantity: 1, amountMinor: 350),
                    SalesReport.ItemSales(menuItemId: "espresso", name: espresso, quantity: 1, amountMinor: 300),
                ]),
            voids: SalesReport.Voids(count: 1, totalMinor: 517),
            unsettled: SalesReport.Unsettled(open: openBills, checkedOut: 1, checkedOutTotalMinor: g.totalMinor),
            cardRefunds: SalesReport.MethodTotals(count: 2, amountMinor: 133),
            cashRefunds: SalesReport.MethodTotals(count: 1, amountMinor: 200),
            cardTips: SalesReport.MethodTotals(count: 1, amountMinor: 50),
            cashTips: SalesReport.MethodTotals(count: 1, amountMinor: 100))
        precondition(g.totalMinor == 381 && a.totalMinor == 1033 && b.totalMinor == 707 && i.totalMinor == 517, "the scenario's menu")
        return SalesScenario(period: try SalesPeriod(from: from, to: to), expected: expected, openBills: openBills)
    }

    /// The name on `bill`'s line of `item`.
    private static func requireName(_ bill: Bill, _ item: String) throws -> String {
        guard let name = bill.lines.first(where: { $0.menuItemId == item })?.name else {
            throw InvariantViolation("no \(item) on \(bill.id)")
        }
        return name
    }
}
