import Foundation
import RoutemapTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `serve` and `migrate` started before their PostgreSQL server: they keep trying for
/// `--database-wait` seconds, a log line per failed attempt, then exit 75 in one line; a stop
/// signal ends the wait. Against a port nothing listens on, so no PostgreSQL is needed (the
/// server coming up while a node waits is in `PostgresNodesTests`, which may stop the server).
@Suite("Waiting for PostgreSQL at start-up")
struct DatabaseWaitTests {
    /// A loopback port nothing listens on now: bound to port 0, read, and closed.
    static func unusedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A URL with a password, on a port nothing listens on.
    static func unreachableURL() throws -> String {
        "postgres://routemap:s3cret-pw@127.0.0.1:\(try unusedPort())/routemap"
    }

    static let migrations = RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations").path

    @Test("serve and migrate with a short --database-wait: a log line per failed attempt, then exit 75 in one line, the password never shown")
    func givesUp() throws {
        let url = try Self.unreachableURL()
        for arguments in [
            ["serve", "--port", "0", "--database-wait", "1", "--log-format", "text"],
            ["migrate", "--database-wait", "1"],
        ] {
            let result = try runRoutemap(arguments + ["--database-url", url, "--migrations", Self.migrations], timeout: 120)
            #expect(result.status == 75, "\(arguments[0]): \(result.output)")
            let lines = result.output.split(separator: "\n")
            let refusals = lines.filter { $0.hasPrefix("routemap: ") }
            #expect(refusals.count == 1 && refusals.first?.contains("127.0.0.1") == true, "\(arguments[0]): \(result.output)")
            #expect(lines.last?.hasPrefix("routemap: The database is unavailable") == true, "\(arguments[0]): \(result.output)")
            let attempts = lines.filter { $0.contains("database unreachable at start-up: trying again") }
            #expect(attempts.count >= 2, "\(arguments[0]): \(result.output)")
            #expect(attempts.allSatisfy { $0.contains("postgres://routemap:***@127.0.0.1") }, "\(arguments[0]): \(result.output)")
            #expect(!result.output.contains("s3cret-pw"), "\(arguments[0]): \(result.output)")
        }
        // 0: one attempt, no wait, the one line alone.
        let once = try runRoutemap(["serve", "--port", "0", "--database-wait", "0", "--database-url", url, "--migrations", Self.migrations])
        #expect(once.status == 75 && once.output.split(separator: "\n").count == 1, "\(once.output)")
        let refused = try runRoutemap(["serve", "--port", "0", "--database-wait", "-1", "--database-url", url])
        #expect(refused.status == 64 && refused.output == "routemap: --database-wait must be 0 to 86400 (0 = one attempt), not '-1'\n", "\(refused.output)")
    }

    @Test("SIGTERM while serve waits for its database: it stops at once, exit 0, having served nothing")
    func stopWhileWaiting() throws {
        let child = try RoutemapChild([
            "serve", "--port", "0", "--database-wait", "3600", "--log-format", "text", "--database-url", try Self.unreachableURL(),
            "--migrations", Self.migrations,
        ])
        defer { child.killIfRunning() }
        let process = child.process
        // Waiting: it has failed once and logged it.
        try #require(child.waitForOutput("trying again", timeout: 60), "\(child.outputText)")
        kill(process.processIdentifier, SIGTERM)
        // Well before the hour it would wait: a minute allows for any machine.
        let stopBy = Date().addingTimeInterval(60)
        while process.isRunning, Date() < stopBy { usleep(20_000) }
        #expect(!process.isRunning, "still waiting after SIGTERM: \(child.outputText)")
        guard !process.isRunning else { return }
        // Ended by the signal's default action (a thread of the runtime's had it unblocked), or, had
        // every thread blocked it, by the wait taking it: exit 0 with a line saying so.
        let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM
        let stopped = process.terminationReason == .exit && process.terminationStatus == 0
            && child.outputText.contains("routemap: stopped by SIGTERM while waiting for the database")
        #expect(killed || stopped, "\(process.terminationReason) \(process.terminationStatus): \(child.outputText)")
        #expect(!child.outputText.contains("listening on"))
    }
}
