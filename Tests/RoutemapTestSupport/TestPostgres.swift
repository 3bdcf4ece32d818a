import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The PostgreSQL server the tests run against when `ROUTEMAP_TEST_DATABASE_URL` is set
/// (`scripts/test` starts a throwaway one, see `postgres_start` in scripts/lib.sh): each test
/// that uses it gets an empty database of its own, made and dropped with `psql`.
public enum TestPostgres {
    /// The server's URL (its `postgres` database), or `nil`: the tests run on SQLite.
    public static var serverURL: String? {
        ProcessInfo.processInfo.environment["ROUTEMAP_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the tests run on PostgreSQL.
    public static var isEnabled: Bool { serverURL != nil }

    /// Creates an empty database on the test server and returns its URL.
    public static func newDatabase() throws -> String {
        guard let server = serverURL else { throw TestPostgresError.notConfigured }
        let name = "routemap_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try psql(server, "CREATE DATABASE \(name)")
        return url(server, database: name)
    }

    /// Drops the database at `url` (made by ``newDatabase()``), closing its connections.
    public static func dropDatabase(_ url: String) {
        guard let server = serverURL, let name = url.split(separator: "/").last, name.hasPrefix("routemap_test_") else { return }
        _ = try? psql(server, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs `sql` with `psql` on the database at `url` and returns what it printed: unaligned,
    /// tuples only (`|` between columns, one row a line).
    @discardableResult
    public static func psql(_ url: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", url, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestPostgresError.psqlFailed(sql: sql, message: String(decoding: message, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The name of the database at `url` (made by ``newDatabase()``).
    public static func databaseName(_ url: String) -> String {
        String(URLComponents(string: url)?.path.dropFirst() ?? "")
    }

    /// `ALTER DATABASE <the database at url> <change>`, e.g. `SET lock_timeout = '200ms'`: run
    /// from the server's own database. Sessions started afterwards get the change.
    public static func alterDatabase(_ url: String, _ change: String) throws {
        guard let server = serverURL else { throw TestPostgresError.notConfigured }
        try psql(server, "ALTER DATABASE \(databaseName(url)) \(change)")
    }

    /// Ends every session on the database at `url` (their backends terminated, as a failover or
    /// an operator would), so that whoever uses it connects again, with its settings as they are now.
    public static func disconnectAll(_ url: String) throws {
        guard let server = serverURL else { throw TestPostgresError.notConfigured }
        try psql(server, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(databaseName(url))'")
    }

    /// Keeps a copy of bill `id` as it is now, its row and its lines (tables `kept_bill` and
    /// `kept_bill_lines`), for ``loseCommitsSinceKept(_:)``.
    public static func keepBill(_ url: String, id: String) throws {
        try psql(
            url,
            """
            CREATE TABLE kept_bill AS SELECT * FROM bills WHERE id = '\(id)';
            CREATE TABLE kept_bill_lines AS SELECT * FROM bill_lines WHERE bill_id = '\(id)';
            """)
    }

    /// Puts the bill kept by ``keepBill(_:id:)`` back as it was, and ends every session: as a
    /// failover to a standby that had not received the commits made since does (the nodes'
    /// connections go with the old primary).
    public static func loseCommitsSinceKept(_ url: String) throws {
        try psql(
            url,
            """
            BEGIN;
            DELETE FROM bill_lines WHERE bill_id IN (SELECT id FROM kept_bill);
            INSERT INTO bill_lines SELECT * FROM kept_bill_lines;
            UPDATE bills SET version = k.version, subtotal_minor = k.subtotal_minor, tax_minor = k.tax_minor,
                total_minor = k.total_minor, updated_at = k.updated_at FROM kept_bill k WHERE bills.id = k.id;
            COMMIT;
            """)
        try disconnectAll(url)
    }

    /// The rows of `routemap_migrations` on the database at `url`, by id, as `columns` gives them
    /// (`id` alone by default); `[]` when the table does not exist yet.
    public static func recordedMigrations(_ url: String, columns: String = "id") throws -> [String] {
        guard try psql(url, "SELECT to_regclass('routemap_migrations') IS NOT NULL") == "t" else { return [] }
        return try psql(url, "SELECT \(columns) FROM routemap_migrations ORDER BY id").split(separator: "\n").map(String.init)
    }

    /// `pg_ctl` on the test server's cluster (`ROUTEMAP_TEST_POSTGRES_CTL`, with `PGDATA`):
    /// `["restart", "-m", "fast"]`, `["stop", "-m", "fast"]`, `["start"]`. Waits until it is done.
    public static func control(_ arguments: [String]) throws {
        let environment = ProcessInfo.processInfo.environment
        guard let command = environment["ROUTEMAP_TEST_POSTGRES_CTL"], let data = environment["PGDATA"] else {
            throw TestPostgresError.notConfigured
        }
        let argv = command.split(separator: " ").map(String.init) + ["-D", data, "-w"] + arguments
        guard try spawnAndWait(argv) == 0 else { throw TestPostgresError.controlFailed(arguments) }
    }

    /// Runs `argv` (found on `PATH`) with its output discarded and returns its exit status.
    /// posix_spawn and waitpid rather than Foundation's `Process`, whose wait did not return
    /// here once `pg_ctl start` had left the server running in the background.
    public static func spawnAndWait(_ argv: [String]) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        let spawned = posix_spawnp(&pid, argv[0], &actions, nil, &cArguments, environ)
        guard spawned == 0 else { throw TestPostgresError.controlFailed(argv) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }

    /// `server` with its database replaced by `database`.
    static func url(_ server: String, database: String) -> String {
        var components = URLComponents(string: server)!
        components.path = "/" + database
        return components.string!
    }
}

public enum TestPostgresError: Error, CustomStringConvertible {
    case notConfigured
    case psqlFailed(sql: String, message: String)
    case controlFailed([String])

    public var description: String {
        switch self {
        case .notConfigured: "ROUTEMAP_TEST_DATABASE_URL (and for pg_ctl ROUTEMAP_TEST_POSTGRES_CTL and PGDATA) are not set"
        case .psqlFailed(let sql, let message): "psql failed on \(sql): \(message)"
        case .controlFailed(let arguments): "pg_ctl \(arguments.joined(separator: " ")) failed"
        }
    }
}
