import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Start-up and stop: graceful SIGTERM, migrations, and refusing databases from the future.
@Suite("Process lifecycle, end to end")
struct LifecycleTests {
    @Test("SIGTERM during a request: stops accepting, finishes the request, checkpoints the database, exits 0", .enabled(if: !TestPostgres.isEnabled, "reads the SQLite file"))
    func gracefulStop() throws {
        let process = try RoutemapProcess(sqliteOnly: true)
        defer { process.cleanUp() }
        let client = try process.client()
        let billId = try #require(try client.request("POST", "/v1/bills").json["bill"]?["id"]?.stringValue)

        // A request whose body is still arriving is in flight when the signal comes.
        let body = Array(#"{"menuItemId":"latte","quantity":2}"#.utf8)
        let slow = try process.client()
        try slow.sendRaw(Array("POST /v1/bills/\(billId)/items HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer \(try process.token())\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body.prefix(10))
        Thread.sleep(forTimeInterval: 0.3)
        kill(process.process.processIdentifier, SIGTERM)
        Thread.sleep(forTimeInterval: 0.5)

        // New connections are refused while the in-flight request is still open.
        #expect(process.process.isRunning)
        #expect(throws: (any Error).self) { _ = try TestHTTPClient(host: "127.0.0.1", port: process.port).request("GET", "/healthz") }

        // The in-flight request completes.
        try slow.sendRaw(Array(body.dropFirst(10)))
        let response = try slow.readResponse(method: "POST")
        #expect(response.status == 200, "\(response.text)")
        #expect(response.json["bill"]?["lines"]?.arrayValue?.first?["quantity"] == 2)

        #expect(process.stop(timeout: 15) == 0, "\(process.outputText)")
        #expect(process.process.terminationReason == .exit)
        // Checkpointed and closed: SQLite removes an empty WAL when the last connection closes.
        let wal = process.databasePath + "-wal"
        let walSize = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
        #expect(walSize == 0, "the WAL still holds \(walSize) bytes")

        // The acknowledged change is in the database.
        let restarted = try RoutemapProcess(databasePath: process.databasePath, token: try process.token(), sqliteOnly: true)
        defer { restarted.cleanUp() }
        let bill = try restarted.client().request("GET", "/v1/bills/\(billId)").json
        #expect(bill["lines"]?.arrayValue?.first?["quantity"] == 2)
    }

    @Test("SIGINT stops with exit status 0 too")
    func interrupt() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        #expect(try process.client().request("GET", "/healthz").status == 200)
        #expect(process.stop(signal: SIGINT) == 0)
    }

    @Test("refuses to start on a database with migrations this binary does not know")
    func unknownMigrations() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routemap-mig-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let future = directory.appendingPathComponent("Migrations")
        try FileManager.default.createDirectory(at: future, withIntermediateDirectories: true)
        let shipped = RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations")
        for file in try FileManager.default.contentsOfDirectory(atPath: shipped.path) {
            try FileManager.default.copyItem(at: shipped.appendingPathComponent(file), to: future.appendingPathComponent(file))
        }
        try "CREATE TABLE from_the_future (id INTEGER);".write(
            to: future.appendingPathComponent("9999_from_the_future.sql"), atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("db.sqlite").path

        let migrate = try runRoutemap(["migrate", "--db", database, "--migrations", future.path])
        #expect(migrate.status == 0, "\(migrate.output)")
        #expect(migrate.output.contains("9999_from_the_future"))

        let serve = try runRoutemap(["serve", "--port", "0", "--db", database, "--migrations", shipped.path])
        #expect(serve.status != 0)
        #expect(serve.output.contains("9999_from_the_future"), "\(serve.output)")
    }

    @Test("migrate applies the shipped migrations once and reports them")
    func migrate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routemap-mig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("db.sqlite").path
        let migrations = RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations").path
        let first = try runRoutemap(["migrate", "--db", database, "--migrations", migrations])
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("0001_"))
        let second = try runRoutemap(["migrate", "--db", database, "--migrations", migrations])
        #expect(second.status == 0)
        #expect(second.output.contains("nothing to apply"), "\(second.output)")
    }

    @Test("healthcheck exits 0 against a healthy server and non-zero when none answers")
    func healthcheck() throws {
        let process = try RoutemapProcess()
        let healthy = try runRoutemap(["healthcheck", "--port", String(process.port)])
        #expect(healthy.status == 0, "\(healthy.output)")
        let port = process.port
        process.cleanUp()
        let gone = try runRoutemap(["healthcheck", "--port", String(port)])
        #expect(gone.status != 0)
    }

    @Test("bad configuration stops start-up with a clear message")
    func badConfiguration() throws {
        let result = try runRoutemap(["serve", "--port", "0", "--tax-rate-bps=-5"])
        #expect(result.status != 0)
        #expect(result.output.contains("--tax-rate-bps must be 0 to 10000"), "\(result.output)")
        for (arguments, message) in [
            (["--per-address-connection-limit=-1"], "--per-address-connection-limit must be 0 to 1000000 (0 = no limit), not '-1'"),
            (["--connection-limit", "0"], "--connection-limit must be 1 to 1000000, not '0'"),
            (["--request-timeout", "100000"], "--request-timeout must be 0 to 86400 (0 = off), not '100000'"),
        ] {
            let refused = try runRoutemap(["serve", "--port", "0"] + arguments)
            #expect(refused.status != 0)
            #expect(refused.output.contains(message), "\(arguments): \(refused.output)")
        }
    }

    @Test("the connection limits and the request timeout reach the server from flags and the environment")
    func connectionLimits() throws {
        let server = try RoutemapProcess(
            arguments: ["--per-address-connection-limit", "3", "--request-timeout", "7"],
            environment: ["ROUTEMAP_CONNECTION_LIMIT": "100"])
        defer { server.cleanUp() }
        let log = server.outputText
        #expect(log.contains(#""perAddressConnectionLimit":"3""#), "\(log)")
        #expect(log.contains(#""requestTimeout":"7s""#), "\(log)")
        #expect(log.contains(#""connectionLimit":"100""#), "\(log)")
    }
}
