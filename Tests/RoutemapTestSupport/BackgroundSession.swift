import Foundation

/// A `psql` session on a test database that runs statements and then sleeps, in the background,
/// so that what they took (a row locked `FOR UPDATE`, an advisory lock) stays held while a test
/// works, until ``end()`` terminates the session.
public final class BackgroundSession: @unchecked Sendable {
    // @unchecked: `process` is touched by the creating test only (`end` is idempotent and
    // called from that test or its deinit).
    private let process: Process
    private let url: String
    private let errors = Pipe()
    /// The session's `application_name`, by which it is found in `pg_stat_activity`.
    public let name: String

    /// Runs `sql` (one or more statements) on the database at `url`, then sleeps for up to
    /// `seconds` in the same transaction; returns once the sleep has begun, so that `sql` has
    /// run and what it locked is held.
    public init(_ url: String, holding sql: String, seconds: Int = 60) throws {
        self.url = url
        name = "routemap_test_hold_" + UUID().uuidString.prefix(8).lowercased()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // One -c: the statements run as one request, in one transaction, which the sleep keeps open.
        process.arguments = ["psql", url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", "\(sql); SELECT pg_sleep(\(seconds))"]
        var environment = ProcessInfo.processInfo.environment
        environment["PGAPPNAME"] = name
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let deadline = ContinuousClock.now + .seconds(10)
        while try TestPostgres.psql(url, "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(name)' AND wait_event = 'PgSleep'") != "1" {
            guard process.isRunning, ContinuousClock.now < deadline else {
                end()
                let message = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
                throw TestPostgresError.psqlFailed(sql: sql, message: "the background session did not start holding: \(message)")
            }
            usleep(20_000)
        }
    }

    /// Terminates the session (releasing what it held) and waits for `psql` to exit.
    public func end() {
        guard process.isRunning else { return }
        _ = try? TestPostgres.psql(url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(name)'")
        process.waitUntilExit()
    }

    deinit { end() }
}
