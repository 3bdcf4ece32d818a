import Foundation
import Logging
import PostgresNIO
import RoutemapDomain
import RoutemapStorage

extension PostgresStore {
    /// Any number, the same in every node: the advisory lock start-ups and `routemap migrate`
    /// hold while they look at and apply migrations, so two nodes starting together apply each
    /// migration once.
    static let migrationLock = 7_240_313_001

    /// Applies the `migrations` the database has not applied, in order, each in its own
    /// transaction with its record in `routemap_migrations`, and returns their ids. Refuses,
    /// before applying anything, a database that has applied migrations not in `migrations`
    /// (a newer binary's), and a pending migration that begins or ends a transaction itself
    /// (its `COMMIT` would commit half of it).
    ///
    /// A migration takes as long as it takes (an index built on a big table), and a node that
    /// starts while another migrates waits for it: so no time limit here, neither the session's
    /// nor the server's `statement_timeout`, nor a `lock_timeout` on the migration lock (the
    /// migrations' own statements keep the database's). The session's connection is closed
    /// afterwards rather than kept without its limits.
    static func apply(_ migrations: [Migration], on session: Session) throws -> [String] {
        session.timeout = nil
        defer { session.giveUp() }
        try wrapping("taking the migration lock") {
            try session.rows("SET statement_timeout = 0")
            try session.rows("SET lock_timeout = 0")
            try session.rows("SELECT pg_advisory_lock(\(migrationLock))")
            try session.rows("RESET lock_timeout")
        }
        defer { _ = try? session.rows("SELECT pg_advisory_unlock(\(migrationLock))") }
        let pending = try pendingMigrations(migrations, on: session)
        for migration in migrations where pending.contains(migration.id) {
            do {
                try session.rows("BEGIN")
                // Inside the migration's transaction: a first migration that fails leaves no
                // empty record table behind.
                try session.rows(
                    "CREATE TABLE IF NOT EXISTS routemap_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
                for statement in SQLScript.statements(in: migration.sql) {
                    try session.rows(PostgresQuery(unsafeSQL: statement))
                }
                try session.rows("INSERT INTO routemap_migrations (id) VALUES (\(migration.id))")
                try session.rows("COMMIT")
            } catch {
                session.rollback()
                if error is ConnectionLost { throw StoreUnavailable(.unreachable, detail: "\(error)") }
                throw StorageError.migrationFailed(id: migration.id, underlying: Described(error))
            }
        }
        return pending
    }

    /// The ids of `migrations` the database has not applied, in order; throws
    /// ``StorageError/unknownMigrations(_:)`` when it applied some not in `migrations`, and
    /// ``StorageError/transactionInMigration(id:statement:)`` for a pending one with a
    /// transaction statement of its own.
    static func pendingMigrations(_ migrations: [Migration], on session: Session) throws -> [String] {
        try Migration.checkUnique(migrations)
        let applied = try wrapping("reading applied migrations") { () -> Set<String> in
            let exists = try session.rows("SELECT to_regclass('routemap_migrations') IS NOT NULL").first?.decode(Bool.self) ?? false
            guard exists else { return [] }
            return Set(try session.rows("SELECT id FROM routemap_migrations").map { try $0.decode(String.self) })
        }
        let pending = try Migration.pendingIDs(migrations, applied: applied)
        for migration in migrations where pending.contains(migration.id) {
            try migration.refuseTransactionStatements(SQLScript.statements(in: migration.sql))
        }
        return pending
    }

    /// Runs `body`, turning a database error into ``StorageError/database(operation:underlying:)``.
    @discardableResult
    static func wrapping<T>(_ operation: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StorageError {
            throw error
        } catch let error as StoreUnavailable {
            throw error
        } catch let error as ConnectionLost {
            throw StoreUnavailable(.unreachable, detail: "\(operation()): \(error)")
        } catch {
            throw StorageError.database(operation: operation(), underlying: Described(error))
        }
    }
}

/// An error with the server's message in its description: `PSQLError`'s own description hides
/// it (it may hold data), but an operator reading why a migration failed needs the message.
struct Described: Error, CustomStringConvertible {
    let error: any Error
    init(_ error: any Error) { self.error = error }

    var description: String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        guard let info = error.serverInfo else { return String(reflecting: error) }
        let state = info[.sqlState] ?? "?", message = info[.message] ?? "?"
        return "\(message) (SQLSTATE \(state))" + (info[.detail].map { ": \($0)" } ?? "")
    }
}

extension PostgresStore {
    /// The tables a row count may name.
    private static let tables: Set<String> = [
        "menu_items", "menu_categories", "devices", "bills", "bill_lines", "payments", "refunds", "receipt_counter", "idempotency_keys",
        "routemap_migrations", "menu_modifier_groups", "menu_modifier_options", "bill_line_modifiers", "drawer_shifts", "drawer_movements",
    ]

    /// The number of rows in `table`, one of the schema's tables (for tests and diagnostics).
    public func rowCount(in table: String) throws -> Int {
        guard Self.tables.contains(table) else { throw InvariantViolation("not a routemap table: \(table)") }
        return try inspecting("counting \(table)") { session in
            try session.rows(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)")).first?.decode(Int.self) ?? 0
        }
    }
}
