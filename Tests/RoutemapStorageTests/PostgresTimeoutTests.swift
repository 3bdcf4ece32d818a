import Foundation
import Logging
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

    @Test("the store's connections get a statement_timeout (and an idle_in_transaction_session_timeout) a second under its limit, unless the database's is shorter")
    func serverTimeoutSet() async throws {
        let database = try await TestDatabase()
        let url = try #require(database.url)
        for (databaseSetting, expected) in [(nil, "1s"), ("'500ms'", "500ms"), ("'1min'", "1s")] {
            if let databaseSetting {
                try TestPostgres.alterDatabase(url, "SET statement_timeout = \(databaseSetting)")
                try TestPostgres.alterDatabase(url, "SET idle_in_transaction_session_timeout = \(databaseSetting)")
            }
            let store = try PostgresStore(
                url: #require(DatabaseURL(url)), migrations: StorageFixtures.postgresMigrations(), connections: 1,
                statementTimeout: .seconds(2), logger: Logger(label: "test"))
            defer { store.close() }
            let settings = try store.inspecting("the timeouts") {
                try $0.rows("SELECT current_setting('statement_timeout') || ' ' || current_setting('idle_in_transaction_session_timeout')")
                    .first?.decode(String.self)
            }
            #expect(settings == "\(expected) \(expected)", "database: \(databaseSetting ?? "none")")
        }
    }

    @Test("a transaction whose client stops sending (a node frozen mid-write) is ended by the server after the same limit, and its locks released")
    func frozenTransactionEnded() async throws {
        let database = try await TestDatabase()
        let url = try #require(database.url)
        let store = try PostgresStore(
            url: #require(DatabaseURL(url)), migrations: StorageFixtures.postgresMigrations(), connections: 1, statementTimeout: .seconds(2),
            logger: Logger(label: "test"))
        defer { store.close() }
        let frozen = Result {
            try store.inspecting("a write that stops half-way") { session in
                _ = try session.rows("BEGIN")
                _ = try session.rows("SELECT pg_advisory_xact_lock(424242)")
                usleep(2_500_000)  // frozen, past the server's 1 s
                _ = try session.rows("SELECT 1")
            }
        }
        // The server ended the session: the store reports the database unavailable (having tried
        // once more on a new connection, which the server ends the same way).
        #expect(throws: StoreUnavailable.self) { try frozen.get() }
        // The lock went with the transaction: another session takes it at once.
        #expect(try TestPostgres.psql(url, "SELECT pg_try_advisory_lock(424242)") == "t")
    }

    @Test("a row locked longer than the store waits: the server cancels each statement first (timedOut), so no backend is left waiting on the lock, and the connection is kept")
    func serverGivesUpFirst() async throws {
        let database = try await TestDatabase()
        let url = try #require(database.url)
        let device = database.device
        let bill = try await database.till().openBill(device: device)
        // Waits 2 s for a statement, so the server's statement_timeout is 1 s.
        let store = try PostgresStore(
            url: #require(DatabaseURL(url)), migrations: StorageFixtures.postgresMigrations(), connections: 1, statementTimeout: .seconds(2),
            logger: Logger(label: "test"))
        defer { store.close() }
        let till = Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd)
        let connection = try backend(of: store)

        let holder = try BackgroundSession(url, holding: "SELECT 1 FROM bills WHERE id = '\(bill.id)' FOR UPDATE")
        defer { holder.end() }
        let results = await concurrentResults(3) { _ in
            _ = try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1)
        }
        for result in results {
            guard case .failure(let error) = result else {
                Issue.record("a write went through a locked bill")
                continue
            }
            #expect((error as? StoreUnavailable)?.reason == .timedOut, "\(error)")
        }
        // Who gave up is told by the backend, not by the time taken (a loaded machine stretches
        // any bound): a client that gave up first would have left each backend waiting until
        // the lock is released, and would have had to open a new connection.
        let waiting = try TestPostgres.psql(url, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")
        #expect(waiting == "0")
        #expect(try backend(of: store) == connection)
        holder.end()

        #expect(try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1).lines.count == 1)
    }
}
