import Foundation
import RoutemapDomain
@testable import RoutemapPostgres
import RoutemapTestSupport
import Testing

/// Statements PostgreSQL gives up on while a row they wait for stays locked (a `lock_timeout` a
/// managed database sets, the store's own `statement_timeout`): the store reports the database
/// unavailable for now, and keeps its connections, which are fine.
@Suite("Statements PostgreSQL gives up on", .enabled(if: TestDatabase.onPostgres, "about PostgreSQL's timeouts"))
struct PostgresTimeoutTests {
    /// The PostgreSQL backend of `store`'s one connection.
    private func backend(of store: PostgresStore) throws -> Int32? {
        try store.inspecting("its backend") { try $0.rows("SELECT pg_backend_pid()").first?.decode(Int32.self) }
    }

    /// What `write` threw, when it is ``StoreUnavailable``.
    private func unavailable(_ write: () async throws -> Void) async -> StoreUnavailable? {
        do {
            try await write()
            return nil
        } catch {
            return error as? StoreUnavailable
        }
    }

    @Test("a lock_timeout: a write waiting on a locked bill is StoreUnavailable (timedOut) at once, its connection kept, and changes nothing")
    func lockTimeout() async throws {
        let database = try await TestDatabase()
        let url = try #require(database.url)
        let device = database.device
        let bill = try await database.till().openBill(device: device)
        try TestPostgres.alterDatabase(url, "SET lock_timeout = '200ms'")
        let store = try PostgresStore(url: #require(DatabaseURL(url)), migrations: StorageFixtures.postgresMigrations(), connections: 1)
        defer { store.close() }
        let till = Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd)
        let connection = try backend(of: store)

        let holder = try BackgroundSession(url, holding: "SELECT 1 FROM bills WHERE id = '\(bill.id)' FOR UPDATE")
        defer { holder.end() }
        let refused = await unavailable { _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1) }
        #expect(refused?.reason == .timedOut, "\(String(describing: refused))")
        // Rolled back by the server on a connection still good: not closed as a broken one.
        #expect(try backend(of: store) == connection)
        holder.end()

        #expect(try till.bill(id: bill.id, device: device).version == bill.version)
        #expect(try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1).lines.count == 1)
        #expect(try backend(of: store) == connection)
    }
}
