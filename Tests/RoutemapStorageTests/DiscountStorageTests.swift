import Foundation
import RoutemapDomain
import RoutemapPostgres
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// Discounts on a real database (SQLite, or PostgreSQL when `ROUTEMAP_TEST_DATABASE_URL` is
/// set): stored with their bill, kept in step with its lines, read by another store, summed by
/// the sales report, checked by the schema, and refused to a node that does not know them.
@Suite("Discounts on a real database")
struct DiscountStorageTests {
    private static let manager = BillCaller(deviceId: "dev_manager", role: .manager)

    /// `sql` run as it is, outside the stores' code.
    private static func execute(_ database: TestDatabase, _ sql: String) throws {
        if let url = database.url {
            _ = try TestPostgres.psql(url, sql)
        } else {
            try database.sqlite.onWriter("writing rows by hand") { try $0.execute(sql: sql) }
        }
    }

    /// An open bill of the database's device holding a latte and a croissant (825).
    private func table(_ till: Till, _ device: String) async throws -> Bill {
        let bill = try await till.addItem(billId: try await till.openBill(device: device).id, device: device, menuItemId: "latte", quantity: 1)
        return try await till.addItem(billId: bill.id, device: device, menuItemId: "croissant", quantity: 1)
    }

    private func discount(_ till: Till, _ bill: Bill, _ discount: BillDiscount?) async throws -> Bill {
        try await till.setDiscount(billId: bill.id, caller: Self.manager, discount, idempotency: nil).performedWithoutKey()
    }

    @Test("a discount is stored with its bill and followed by its lines, as this store and another read it")
    func stored() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        // On PostgreSQL another node, with a cache of its own; SQLite has one store per file.
        let other = database.url == nil ? database.store : try database.reopen()
        let otherTill = Till(store: other, taxRate: StorageFixtures.rate875, currency: .usd)
        var bill = try await table(till, database.device)
        // The other store reads (and may cache) the bill before the discount.
        #expect(try other.bill(id: bill.id) == bill)
        bill = try await discount(till, bill, try BillDiscount(percentBasisPoints: 1_000, reason: "Regular"))
        #expect((bill.discountMinor, bill.taxMinor, bill.totalMinor) == (82, 65, 808))
        for store in [database.store, other, try database.reopen()] {
            #expect(try store.bill(id: bill.id) == bill)
        }
        // A line added on the other store: the percentage follows it, for both.
        bill = try await otherTill.addItem(billId: bill.id, device: database.device, menuItemId: "espresso", quantity: 1)
        // 1125: 112.5 → 112 (even); 1013 × 8.75 % = 88.6375 → 89.
        #expect((bill.discountMinor, bill.taxMinor, bill.totalMinor) == (112, 89, 1_102))
        for store in [database.store, other, try database.reopen()] {
            #expect(try store.bill(id: bill.id) == bill)
            #expect(try store.bill(id: bill.id)?.totalMinor == bill.totalMinor)
        }
        // An amount, capped when lines go, then none.
        bill = try await discount(till, bill, try BillDiscount(amountMinor: 900, reason: "Wrong order"))
        bill = try await till.removeLine(billId: bill.id, device: database.device, lineId: bill.lines[2].lineId)
        #expect((bill.subtotalMinor, bill.discountMinor, bill.taxMinor, bill.totalMinor) == (825, 825, 0, 0))
        for store in [database.store, other, try database.reopen()] { #expect(try store.bill(id: bill.id) == bill) }
        bill = try await discount(otherTill, bill, nil)
        #expect(bill.discount == nil && bill.totalMinor == 898)
        for store in [database.store, other, try database.reopen()] { #expect(try store.bill(id: bill.id) == bill) }
    }

    @Test("the sales report: gross subtotal and items, the discounts given (count and sum), net, tax and total as paid")
    func reported() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let device = database.device
        let start = Date().addingTimeInterval(-60)
        var discounted = try await table(till, device)
        discounted = try await discount(till, discounted, try BillDiscount(percentBasisPoints: 1_000, reason: "Regular"))
        let plain = try await table(till, device)
        // A discount that takes nothing off (an amount off an empty bill is no discount given).
        var empty = try await till.openBill(device: device)
        empty = try await discount(till, empty, try BillDiscount(amountMinor: 100, reason: "Nothing yet"))
        empty = try await till.addItem(billId: empty.id, device: device, menuItemId: "latte", quantity: 1)
        for bill in [discounted, plain, empty] {
            _ = try await till.checkout(billId: bill.id, device: device)
            _ = try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: bill.totalMinor))
        }
        let period = try SalesPeriod(from: start, to: Date().addingTimeInterval(60))
        let sales = try till.salesReport(period, caller: Self.manager).sales
        let gross: Int64 = 825 + 825 + 475
        #expect(sales.subtotalMinor == gross)
        #expect(sales.items.map(\.amountMinor).reduce(0, +) == gross)
        #expect(sales.discounts == SalesReport.MethodTotals(count: 2, amountMinor: 82 + 100))
        #expect(sales.discountedSubtotalMinor == gross - 182)
        #expect(sales.totalMinor == discounted.totalMinor + plain.totalMinor + empty.totalMinor)
        #expect(sales.taxMinor == discounted.taxMinor + plain.taxMinor + empty.taxMinor)
        #expect(try till.salesReport(period, caller: Self.manager).payments.amountMinor == sales.totalMinor)
    }

    @Test("the schema refuses a discount with both kinds, a kind without a reason, a reason without one (with the positive control)")
    func constraints() async throws {
        let database = try await TestDatabase()
        let bill = try await table(database.till(), database.device)
        let set = { (columns: String) in
            try Self.execute(database, "UPDATE bills SET \(columns) WHERE id = '\(bill.id)';")
        }
        #expect(throws: (any Error).self) { try set("discount_percent_bps = 100, discount_amount_minor = 5, discount_reason = 'x'") }
        #expect(throws: (any Error).self) { try set("discount_percent_bps = 100") }
        #expect(throws: (any Error).self) { try set("discount_reason = 'x'") }
        #expect(throws: (any Error).self) { try set("discount_percent_bps = 0, discount_reason = 'x'") }
        #expect(throws: (any Error).self) { try set("discount_minor = 5") }
        #expect(try database.reopen().bill(id: bill.id) == bill)
        // What the application writes passes (on PostgreSQL with discount_version at the version).
        let version = database.url == nil ? "" : ", discount_version = version + 1"
        try set("discount_percent_bps = 1000, discount_reason = 'Regular', discount_minor = 82, subtotal_minor = 743, tax_minor = 65, total_minor = 808, version = version + 1\(version)")
        let read = try #require(try database.reopen().bill(id: bill.id))
        #expect(read.discount == (try BillDiscount(percentBasisPoints: 1_000, reason: "Regular")) && read.totalMinor == 808)
    }

    @Test("a node on the binary from before 0021 cannot change a discounted bill (PostgreSQL's trigger), whatever it takes off; it can change others")
    func oldBinaryRefused() async throws {
        let database = try await TestDatabase()
        guard let url = database.url else { return }
        let till = database.till()
        // 1 bp of 825 is 0.0825: the discount takes off 0, so the old binary's totals would match.
        var bill = try await discount(till, try await table(till, database.device), try BillDiscount(percentBasisPoints: 1, reason: "Token"))
        #expect(bill.discountMinor == 0)
        // The old binary's update: every column it knows, not the discount's.
        let oldUpdate = { (id: String) in
            "UPDATE bills SET status = 'checked_out', subtotal_minor = subtotal_minor, version = version + 1, updated_at = now() WHERE id = '\(id)';"
        }
        #expect(throws: (any Error).self) { try TestPostgres.psql(url, oldUpdate(bill.id)) }
        #expect(try database.reopen().bill(id: bill.id) == bill)
        // Positive control: the same update of a bill without a discount passes.
        let plain = try await table(till, database.device)
        _ = try TestPostgres.psql(url, oldUpdate(plain.id))
        #expect(try database.reopen().bill(id: plain.id)?.status == .checkedOut)
        // And the new binary goes on changing the discounted bill.
        bill = try await till.checkout(billId: bill.id, device: database.device)
        #expect(try database.reopen().bill(id: bill.id) == bill)
    }
}
