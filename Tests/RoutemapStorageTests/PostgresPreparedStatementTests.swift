import Foundation
import RoutemapDomain
@testable import RoutemapPostgres
import RoutemapTestSupport
import Testing

/// The reads every write makes (a bill, a menu item) run as statements prepared on each
/// connection, planned once there; a connection whose prepared statement cannot run any more is
/// replaced, and the read runs again on the new one.
@Suite("Prepared statements on PostgreSQL", .enabled(if: TestDatabase.onPostgres, "about PostgreSQL's prepared statements"))
struct PostgresPreparedStatementTests {
    /// `store`'s one connection: its backend, and how many statements are prepared on it.
    private func connection(of store: PostgresStore) throws -> (backend: Int32, prepared: Int) {
        try store.inspecting("its connection") { session in
            let row = try #require(try session.rows("SELECT pg_backend_pid(), (SELECT count(*) FROM pg_prepared_statements)").first)
            let (backend, prepared) = try row.decode((Int32, Int).self)
            return (backend, prepared)
        }
    }

    private func store(_ url: String) throws -> (PostgresStore, Till) {
        let store = try PostgresStore(url: #require(DatabaseURL(url)), migrations: StorageFixtures.postgresMigrations(), connections: 1)
        return (store, Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd))
    }

    @Test("adding items prepares the bill's and the menu item's reads once on the connection, and they read what was written")
    func preparedOnce() async throws {
        let database = try await TestDatabase()
        let (store, till) = try store(#require(database.url))
        defer { store.close() }
        let device = database.device
        let bill = try await till.openBill(device: device)
        #expect(try connection(of: store).prepared == 0)
        _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        let first = try connection(of: store)
        #expect(first.prepared == 2)
        for item in ["croissant", "espresso", "latte"] {
            _ = try await till.addItem(billId: bill.id, device: device, menuItemId: item, quantity: 1)
        }
        #expect(try connection(of: store) == (first.backend, 2))
        let read = try till.bill(id: bill.id, device: device)
        #expect(read.lines.map(\.menuItemId) == ["latte", "croissant", "espresso"])
        #expect(read.lines.map(\.quantity) == [2, 1, 1])
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
        #expect(before.prepared == 2)
        // The bill's read returns `label`: PostgreSQL refuses its cached plan with 0A000 now.
        _ = try TestPostgres.psql(url, "ALTER TABLE bills ALTER COLUMN label TYPE varchar(200)")
        #expect(try till.bill(id: bill.id, device: device).label == "Table 4")
        let changed = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        #expect(changed.lines.map(\.quantity) == [2])
        let after = try connection(of: store)
        #expect(after.backend != before.backend)
        #expect(after.prepared == 2)
    }
}
