import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

/// A bill's one discount: taken off the subtotal, the tax on what is left, kept in step with the
/// lines, given by a till up to its limit and by a manager without one.
@Suite("Discounts: off the subtotal before tax, following the lines, within a till's limit")
struct DiscountTests {
    private static func percent(_ basisPoints: Int, _ reason: String = "Regular") throws -> BillDiscount {
        try BillDiscount(percentBasisPoints: basisPoints, reason: reason)
    }

    private static func amount(_ minor: Int64, _ reason: String = "Wrong order") throws -> BillDiscount {
        try BillDiscount(amountMinor: minor, reason: reason)
    }

    @Test("10 % of 825 is 82 (82.5 to even); the tax is on the 743 left, once (65), not per line; the total 808")
    func percentBeforeTax() throws {
        var bill = try Fixtures.bill(with: [Fixtures.latte, Fixtures.croissant])
        #expect((bill.subtotalMinor, bill.taxMinor, bill.totalMinor) == (825, 73, 898))
        try bill.setDiscount(try Self.percent(1_000))
        #expect(bill.subtotalMinor == 825)
        #expect(bill.discountMinor == 82)
        #expect(bill.discountedSubtotalMinor == 743)
        // 743 × 8.75 % = 65.0125 → 65. On the gross subtotal it would be 72 (or 73 per line).
        #expect(bill.taxMinor == 65)
        #expect(bill.totalMinor == 808)
    }

    @Test("a percentage follows the lines: adding, raising and removing recompute it, rounded half to even")
    func percentFollowsLines() throws {
        var bill = try Fixtures.bill(with: [Fixtures.latte, Fixtures.croissant])
        try bill.setDiscount(try Self.percent(1_000))
        try bill.add(Fixtures.item("espresso", price: 300), quantity: 1, newLineId: "line_2")
        // 1125: 112.5 → 112 (even), 1013 × 8.75 % = 88.6375 → 89.
        #expect((bill.discountMinor, bill.taxMinor, bill.totalMinor) == (112, 89, 1_102))
        try bill.setQuantity(lineId: "line_0", quantity: 2, item: Fixtures.latte)
        // 1600: 160; 1440 × 8.75 % = 126.
        #expect((bill.subtotalMinor, bill.discountMinor, bill.taxMinor, bill.totalMinor) == (1_600, 160, 126, 1_566))
        try bill.removeLine(lineId: "line_2")
        // 1300: 130; 1170 × 8.75 % = 102.375 → 102.
        #expect((bill.discountMinor, bill.taxMinor, bill.totalMinor) == (130, 102, 1_272))
    }

    @Test("an amount never takes off more than the subtotal: capped when lines go, back in full when they come back")
    func amountCapped() throws {
        var bill = try Fixtures.bill(with: [Fixtures.latte, Fixtures.croissant])
        try bill.setDiscount(try Self.amount(500))
        // 825 − 500 = 325; 325 × 8.75 % = 28.4375 → 28.
        #expect((bill.discountMinor, bill.taxMinor, bill.totalMinor) == (500, 28, 353))
        try bill.removeLine(lineId: "line_1")
        #expect((bill.subtotalMinor, bill.discountMinor, bill.taxMinor, bill.totalMinor) == (475, 475, 0, 0))
        try bill.removeLine(lineId: "line_0")
        #expect((bill.subtotalMinor, bill.discountMinor, bill.totalMinor) == (0, 0, 0))
        try bill.add(Fixtures.latte, quantity: 2, newLineId: "line_3")
        #expect((bill.discountMinor, bill.totalMinor) == (500, 450 + 39))
        #expect(bill.discount?.amountMinor == 500)
    }

    @Test("each change of the discount is a new version; the same discount again, or removing none, is none")
    func versions() throws {
        var bill = try Fixtures.bill(with: [Fixtures.latte])
        let version = bill.version
        try bill.setDiscount(nil)
        #expect(bill.version == version)
        try bill.setDiscount(try Self.percent(1_000))
        #expect(bill.version == version + 1)
        try bill.setDiscount(try Self.percent(1_000))
        #expect(bill.version == version + 1)
        try bill.setDiscount(try Self.percent(1_000, "Staff"))
        #expect(bill.version == version + 2 && bill.discount?.reason == "Staff")
        try bill.setDiscount(try Self.amount(100))
        #expect(bill.version == version + 3 && bill.discount?.percentBasisPoints == nil)
        try bill.setDiscount(nil)
        #expect(bill.version == version + 4 && bill.discount == nil && bill.totalMinor == 475 + 42)
    }

    @Test("only an open bill: a checked-out one is billNotOpen, unchanged")
    func openOnly() throws {
        var bill = try Fixtures.checkedOutBill()
        let before = bill
        #expect(throws: POSError.billNotOpen(.checkedOut)) { try bill.setDiscount(try Self.percent(500)) }
        #expect(throws: POSError.billNotOpen(.checkedOut)) { try bill.setDiscount(nil) }
        #expect(bill == before)
    }

    @Test("a percentage is 1 to 10 000 bps, an amount 1 to 10^13, the reason a void's: InvalidInput naming each")
    func refusals() throws {
        for basisPoints in [0, -1, 10_001, .max] {
            #expect(throws: InvalidInput(field: "percentBps", rule: "between 1 and 10000")) { try Self.percent(basisPoints) }
        }
        for minor in [0, -1, 10_000_000_000_001, .max] as [Int64] {
            #expect(throws: InvalidInput(field: "amountMinor", rule: "between 1 and 10000000000000")) { try Self.amount(minor) }
        }
        for reason in ["", "   ", "a\u{7}b", String(repeating: "x", count: 201)] {
            #expect(throws: InvalidInput(field: "reason", rule: BillVoiding.reasonRule)) { try Self.percent(1_000, reason) }
        }
        #expect(try Self.percent(10_000).percentBasisPoints == 10_000)
        #expect(try Self.amount(10_000_000_000_000).amountMinor == 10_000_000_000_000)
    }

    @Test("100 % leaves nothing to tax; a discount on amounts near Int64.max does not trap")
    func extremes() throws {
        var bill = try Fixtures.bill(with: [Fixtures.latte])
        try bill.setDiscount(try Self.percent(10_000))
        #expect((bill.discountMinor, bill.taxMinor, bill.totalMinor) == (475, 0, 0))
        let huge = try BillLine(lineId: "line_h", menuItemId: "gold", name: "Gold", quantity: 1, unitPriceMinor: .max)
        var big = try Bill(id: "bill_big", lines: [huge], currency: .usd, taxRate: TaxRate(basisPoints: 0)!, createdAt: Fixtures.createdAt)
        try big.setDiscount(try Self.percent(1))
        #expect(big.discountMinor == Int64.max / 10_000 + 1 && big.totalMinor == .max - big.discountMinor)
        try big.setDiscount(try Self.amount(10_000_000_000_000))
        #expect(big.totalMinor == .max - 10_000_000_000_000)
    }

    @Test("an amount's share of the subtotal, rounded up: 82 of 825 is 994 bps, 83 is 1007; off an empty bill, all of it")
    func share() throws {
        #expect(try Self.amount(82).share(ofSubtotal: 825) == 994)
        #expect(try Self.amount(83).share(ofSubtotal: 825) == 1_007)
        #expect(try Self.amount(900).share(ofSubtotal: 825) == 10_000)
        #expect(try Self.amount(1).share(ofSubtotal: 0) == 10_000)
        #expect(try Self.percent(1_250).share(ofSubtotal: 0) == 1_250)
    }

    // MARK: The use case

    private let store = InMemoryStore(menu: Fixtures.menu)

    private func till(limit: Int) -> Till {
        Till(store: store, taxRate: Fixtures.rate875, currency: .usd, tillDiscountLimitBasisPoints: limit)
    }

    /// A bill of `device` holding a latte and a croissant (825).
    private func table(_ device: String = Fixtures.device) async throws -> Bill {
        let till = till(limit: 0)
        let bill = try await till.openBill(device: device)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        return try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 1)
    }

    @Test("a till gives up to its limit (an amount as its share now); past it discountNeedsManager, nothing changed")
    func tillLimit() async throws {
        let bill = try await table()
        let till = till(limit: 1_000)
        let caller = BillCaller.till(Fixtures.device)
        let given = try await till.setDiscount(billId: bill.id, caller: caller, try Self.percent(1_000), idempotency: nil)
        #expect(try given.performedWithoutKey().discountMinor == 82)
        let before = store.snapshot
        await #expect(throws: POSError.discountNeedsManager(limitBasisPoints: 1_000, shareBasisPoints: 1_001)) {
            try await till.setDiscount(billId: bill.id, caller: caller, try Self.percent(1_001), idempotency: nil)
        }
        await #expect(throws: POSError.discountNeedsManager(limitBasisPoints: 1_000, shareBasisPoints: 1_007)) {
            try await till.setDiscount(billId: bill.id, caller: caller, try Self.amount(83), idempotency: nil)
        }
        #expect(store.snapshot.bills == before.bills)
        let amount = try await till.setDiscount(billId: bill.id, caller: caller, try Self.amount(82), idempotency: nil)
        #expect(try amount.performedWithoutKey().discountMinor == 82)
        // Removing needs no limit.
        let removed = try await till.setDiscount(billId: bill.id, caller: caller, nil, idempotency: nil)
        #expect(try removed.performedWithoutKey().discount == nil)
    }

    @Test("by default (limit 0) a till gives no discount at all; a manager gives any, on any device's open bill")
    func managerOnlyByDefault() async throws {
        let bill = try await table()
        let till = till(limit: 0)
        await #expect(throws: POSError.discountNeedsManager(limitBasisPoints: 0, shareBasisPoints: 1)) {
            try await till.setDiscount(billId: bill.id, caller: .till(Fixtures.device), try Self.percent(1), idempotency: nil)
        }
        let manager = BillCaller(deviceId: "dev_manager", role: .manager)
        let given = try await till.setDiscount(billId: bill.id, caller: manager, try Self.percent(10_000, "On the house"), idempotency: nil)
        #expect(try given.performedWithoutKey().totalMinor == 0)
        #expect(try till.bill(id: bill.id, device: Fixtures.device).discount?.reason == "On the house")

        // The till re-sending the discount the manager gave changes nothing and is not refused
        // (no money moves); a different one past its limit still is.
        let resent = try await till.setDiscount(billId: bill.id, caller: .till(Fixtures.device), try Self.percent(10_000, "On the house"), idempotency: nil)
        #expect(try resent.performedWithoutKey().version == given.performedWithoutKey().version)
        await #expect(throws: POSError.discountNeedsManager(limitBasisPoints: 0, shareBasisPoints: 10_000)) {
            try await till.setDiscount(billId: bill.id, caller: .till(Fixtures.device), try Self.percent(10_000, "Free"), idempotency: nil)
        }
    }

    @Test("another till gets billNotFound; a checked-out bill is billNotOpen, even for a manager")
    func reach() async throws {
        let bill = try await table()
        let till = till(limit: 10_000)
        await #expect(throws: POSError.billNotFound(bill.id)) {
            try await till.setDiscount(billId: bill.id, caller: .till(Fixtures.otherDevice), try Self.percent(100), idempotency: nil)
        }
        _ = try await till.checkout(billId: bill.id, device: Fixtures.device)
        let manager = BillCaller(deviceId: "dev_manager", role: .manager)
        await #expect(throws: POSError.billNotOpen(.checkedOut)) {
            try await till.setDiscount(billId: bill.id, caller: manager, try Self.percent(100), idempotency: nil)
        }
        await #expect(throws: POSError.billNotOpen(.checkedOut)) {
            try await till.setDiscount(billId: bill.id, caller: manager, nil, idempotency: nil)
        }
    }

    @Test("paying takes the discounted total (the undiscounted one is a mismatch); the report shows gross, discounts and net")
    func paidAndReported() async throws {
        let bill = try await table()
        let till = till(limit: 1_000)
        _ = try await till.setDiscount(billId: bill.id, caller: .till(Fixtures.device), try Self.percent(1_000), idempotency: nil)
        _ = try await till.checkout(billId: bill.id, device: Fixtures.device)
        await #expect(throws: POSError.amountMismatch(expectedMinor: 808, receivedMinor: 898)) {
            try await till.pay(billId: bill.id, device: Fixtures.device, PaymentRequest(method: .card, amountMinor: 898))
        }
        let outcome = try await till.pay(billId: bill.id, device: Fixtures.device, PaymentRequest(method: .card, amountMinor: 808))
        #expect(outcome.payment.amountMinor == 808)
        let period = try SalesPeriod(from: Date().addingTimeInterval(-3_600), to: Date().addingTimeInterval(3_600))
        let report = try till.salesReport(period, caller: BillCaller(deviceId: "dev_manager", role: .manager))
        #expect(report.sales.subtotalMinor == 825)
        #expect(report.sales.items.map(\.amountMinor).reduce(0, +) == 825)
        #expect(report.sales.discounts == SalesReport.MethodTotals(count: 1, amountMinor: 82))
        #expect(report.sales.discountedSubtotalMinor == 743)
        #expect(report.sales.taxMinor == 65 && report.sales.totalMinor == 808)
        #expect(report.payments.amountMinor == 808)
    }
}
