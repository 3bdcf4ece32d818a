import Foundation
import RoutemapDomain
@testable import RoutemapPostgres
import RoutemapTestSupport
import Testing

/// The statements every change of a bill runs (its reads, its locks, its writes, a payment's)
/// are prepared on each connection and planned once there; a connection whose prepared
/// statement cannot run any more is replaced, and the read runs again on the new one.
@Suite("Prepared statements on PostgreSQL", .enabled(if: TestDatabase.onPostgres, "about PostgreSQL's prepared statements"))
struct PostgresPreparedStatementTests {
    /// `store`'s one connection: its backend, and for each statement prepared on it how many
    /// times it ran (the plans PostgreSQL made or reused for it).
    private func connection(of store: PostgresStore) throws -> (backend: Int32, runs: [String: Int]) {
        try store.inspecting("its connection") { session in
            let backend = try #require(try session.rows("SELECT pg_backend_pid()").first).decode(Int32.self)
            var runs: [String: Int] = [:]
            for row in try session.rows("SELECT name, generic_plans + custom_plans FROM pg_prepared_statements") {
                let (name, count) = try row.decode((String, Int).self)
                runs[name] = count
            }
            return (backend, runs)
        }
    }

    private func store(_ url: String) throws -> (PostgresStore, Till) {
        let store = try PostgresStore(url: #require(DatabaseURL(url)), migrations: StorageFixtures.postgresMigrations(), connections: 1)
        return (store, Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd))
    }

    @Test("an order's writes run prepared statements, each prepared once on the connection, and read back what they wrote")
    func preparedOnce() async throws {
        let database = try await TestDatabase()
        let (store, till) = try store(#require(database.url))
        defer { store.close() }
        let device = database.device
        #expect(try connection(of: store).runs == [:])
        let bill = try #require(try await till.openBill(device: device, idempotency: Keys.bill("open")).performedValue)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        let first = try connection(of: store)
        let adding = ["routemap_bill", "routemap_bill_lock", "routemap_menu_item", "routemap_bill_update", "routemap_line_insert"]
        let opening = ["routemap_advisory_lock", "routemap_recorded_answer", "routemap_record_answer", "routemap_bill_insert"]
        for name in adding { #expect(first.runs[name] == 1, "\(name): \(first.runs)") }
        for name in opening { #expect(first.runs[name] != nil, "\(name): \(first.runs)") }

        // Three more adds, the last one raising the first line: run again on the same backend,
        // not prepared anew.
        for item in ["croissant", "espresso", "latte"] {
            _ = try await till.addItem(billId: bill.id, device: device, menuItemId: item, quantity: 1)
        }
        let later = try connection(of: store)
        #expect(later.backend == first.backend)
        for name in ["routemap_bill", "routemap_bill_lock", "routemap_menu_item", "routemap_bill_update"] {
            #expect(later.runs[name] == 4, "\(name): \(later.runs)")
        }
        #expect(later.runs["routemap_line_insert"] == 3)
        #expect(later.runs["routemap_line_update"] == 1)

        let checkedOut = try #require(try await till.checkout(billId: bill.id, device: device, idempotency: Keys.bill("checkout", fingerprint: "checkout")).performedValue)
        let request = PaymentRequest(method: .card, amountMinor: checkedOut.totalMinor)
        let payKey = Keys.payment("pay", fingerprint: "pay")
        let paying = try await till.pay(billId: bill.id, device: device, request, idempotency: payKey)
        let paid = try #require(paying.performedValue)
        let afterPay = try connection(of: store)
        for name in ["routemap_receipt_number", "routemap_payment_insert"] { #expect(afterPay.runs[name] == 1, "\(name): \(afterPay.runs)") }
        #expect(afterPay.runs["routemap_record_answer"] == 3)

        let read = try till.bill(id: bill.id, device: device)
        #expect(read.lines.map(\.menuItemId) == ["latte", "croissant", "espresso"])
        #expect(read.lines.map(\.quantity) == [2, 1, 1])
        #expect(read.status == .paid)
        #expect(try store.payment(id: paid.payment.id) == paid.payment)
        #expect(paid.payment.receiptNumber == 1)
        // A replay finds the answer recorded under its key, by the prepared read.
        let replayed = try await till.pay(billId: bill.id, device: device, request, idempotency: payKey).replayed
        #expect(replayed == paying.recordedNow)
        #expect(try connection(of: store).runs["routemap_recorded_answer"] == 4)
    }

    @Test("a migration that changes what a prepared read returns: the connection is replaced and the read and the write go on")
    func resultShapeChanged() async throws {
        let database = try await TestDatabase()
        let url = try #require(database.url)
        let (store, till) = try store(url)
        defer { store.close() }
        let device = database.device
        let bill = try await till.openBill(device: device, label: "Table 4")
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        let before = try connection(of: store)
        #expect(before.runs["routemap_bill"] == 1)
        // The bill's read returns `label`: PostgreSQL refuses its cached plan with 0A000 now.
        _ = try TestPostgres.psql(url, "ALTER TABLE bills ALTER COLUMN label TYPE varchar(200)")
        #expect(try till.bill(id: bill.id, device: device).label == "Table 4")
        let changed = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        #expect(changed.lines.map(\.quantity) == [2])
        let after = try connection(of: store)
        #expect(after.backend != before.backend)
        // The read, then the write's read, on the new connection; the write's update there too.
        #expect(after.runs["routemap_bill"] == 2)
        #expect(after.runs["routemap_bill_update"] == 1)
    }
}
