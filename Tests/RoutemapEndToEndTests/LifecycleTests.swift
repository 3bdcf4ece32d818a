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
        // Once the server has read its head, the slow request is in flight beside the scrape
        // itself; a connection still in the listen backlog at SIGTERM would be refused instead.
        let headRead = holdsSoon {
            let metrics = try process.client(authorized: false).request("GET", "/metrics")
            return (Exposition(text: metrics.text).value("routemap_http_requests_in_flight", [:]) ?? 0) >= 2
        }
        try #require(headRead, "the slow request was never in flight")
        kill(process.process.processIdentifier, SIGTERM)

        // New connections are refused (once the server has seen the signal) while the in-flight
        // request is still open.
        let refused = holdsSoon { (try? TestHTTPClient(host: "127.0.0.1", port: process.port).request("GET", "/healthz")) == nil }
        #expect(refused, "new connections were still served 5 s after SIGTERM")
        #expect(process.process.isRunning)

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

    @Test("SIGTERM while PostgreSQL hangs with a read in flight: the node answers it 503 after the grace period and exits 0 soon after, not after the statement limit and a reconnection", .enabled(if: TestPostgres.isEnabled))
    func stopWhileTheDatabaseHangs() throws {
        let (proxy, database, proxied) = try FreezableProxy.inFrontOfNewTestDatabase()
        defer {
            proxy.close()
            TestPostgres.dropDatabase(database)
        }
        let process = try RoutemapProcess(databasePath: proxied)
        defer { process.cleanUp() }
        let client = try process.client()
        try #require(try client.request("POST", "/v1/bills").status == 201)

        // The database stops answering; a read that needs it (no such bill: nothing cached) waits.
        proxy.freeze()
        let token = try process.token(), port = process.port
        let answer = Collected<TestResponse>()
        let reading = Thread {
            guard let reader = try? TestHTTPClient(port: port, timeout: .seconds(60)) else { return }
            if let response = try? reader.request("GET", "/v1/bills/bill_hangs", headers: [("Authorization", "Bearer \(token)")]) {
                answer.append(response)
            }
        }
        reading.start()
        usleep(500_000)  // on its way; were it not yet, the stop would only be quicker

        let start = ContinuousClock.now
        let status = process.stop(timeout: 60)
        let took = ContinuousClock.now - start
        #expect(status == 0, "\(process.outputText)")
        // The grace period (7 s) and the store's close, which no longer waits for the statement
        // limit (10 s) and then a connect timeout (5 s): 7.5 s here, 14.5 s before. The bound
        // leaves a loaded machine 4.5 s, and still fails the old close.
        #expect(took < .seconds(12), "stopped after \(took): \(process.outputText)")
        while answer.all.isEmpty, reading.isExecuting { usleep(20_000) }
        #expect(answer.all.first?.status == 503, "\(answer.all)")
    }

    @Test("SIGINT stops with exit status 0 too")
    func interrupt() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        #expect(try process.client().request("GET", "/healthz").status == 200)
        #expect(process.stop(signal: SIGINT) == 0)
    }

    // The migration tests run on the store the suite runs on: SQLite, or PostgreSQL with
    // ROUTEMAP_TEST_DATABASE_URL (`--database-url`, whose migrations are `Migrations/postgres/`).

    @Test("refuses a migration file with a COMMIT of its own, naming it, in migrate, its dry run and serve, and applies nothing")
    func migrationWithItsOwnTransaction() throws {
        let workspace = try MigrationWorkspace()
        defer { workspace.cleanUp() }
        try workspace.add("9999_own_commit", sql: "CREATE TABLE own_commit (id INTEGER);\nCOMMIT;\n")
        for command in [["migrate", "--dry-run"], ["migrate"], ["serve", "--port", "0"]] {
            let refused = try runRoutemap(command + ["--migrations", workspace.migrations.path] + workspace.databaseArguments, timeout: 60)
            #expect(refused.status != 0, "\(command): \(refused.output)")
            #expect(refused.output.contains("9999_own_commit"), "\(command): \(refused.output)")
            #expect(refused.output.contains("transaction"), "\(command): \(refused.output)")
            #expect(!refused.output.contains("listening"), "\(command): \(refused.output)")
        }
        #expect(try workspace.recordedIDs() == [])
        #expect(try workspace.tables() == [])
    }

    @Test("refuses to start on a database with migrations this binary does not know, naming them, and applies nothing")
    func unknownMigrations() throws {
        let workspace = try MigrationWorkspace()
        defer { workspace.cleanUp() }
        try workspace.add("9999_from_the_future", sql: "CREATE TABLE from_the_future (id INTEGER);")
        let migrate = try runRoutemap(["migrate", "--migrations", workspace.migrations.path] + workspace.databaseArguments)
        #expect(migrate.status == 0, "\(migrate.output)")
        #expect(migrate.output.contains("applied 9999_from_the_future"), "\(migrate.output)")
        let recorded = try workspace.recordedIDs()
        try #expect(recorded == workspace.ids())

        // A binary with the shipped migrations and one of its own the database has not applied.
        let older = try MigrationWorkspace()
        defer { older.cleanUp() }
        try older.add("9998_pending", sql: "CREATE TABLE pending (id INTEGER);")
        let serve = try runRoutemap(
            ["serve", "--port", "0", "--migrations", older.migrations.path] + workspace.databaseArguments, timeout: 60)
        #expect(serve.status != 0, "\(serve.output)")
        #expect(serve.output.contains("9999_from_the_future"), "\(serve.output)")
        #expect(!serve.output.contains("listening"), "\(serve.output)")
        #expect(try workspace.recordedIDs() == recorded)
        #expect(try !workspace.hasTable("pending"))

        // `migrate` and its dry run refuse it too.
        for dryRun in [["--dry-run"], []] {
            let refused = try runRoutemap(["migrate", "--migrations", older.migrations.path] + dryRun + workspace.databaseArguments)
            #expect(refused.status != 0, "\(dryRun): \(refused.output)")
            #expect(refused.output.contains("9999_from_the_future"), "\(dryRun): \(refused.output)")
        }
        #expect(try workspace.recordedIDs() == recorded)
    }

    @Test("a migrations directory that is missing (64) or empty (65) stops serve and migrate with one line, and leaves no database file", .enabled(if: !TestPostgres.isEnabled))
    func unusableMigrationsDirectory() throws {
        let directory = try TemporaryDirectory()
        let empty = directory.url.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let database = directory.path("new.sqlite")
        for command in [["serve", "--port", "0"], ["migrate"], ["migrate", "--dry-run"]] {
            for (migrations, status) in [(directory.path("missing"), Int32(64)), (empty.path, 65)] {
                let refused = try runRoutemap(command + ["--db", database, "--migrations", migrations], timeout: 30)
                #expect(refused.status == status, "\(command) \(migrations): \(refused.output)")
                let lines = refused.output.split(separator: "\n")
                #expect(lines.count == 1 && lines[0].hasPrefix("routemap: "), "\(command): \(refused.output)")
                #expect(!FileManager.default.fileExists(atPath: database), "\(command) \(migrations) left a database file")
            }
        }
    }

    @Test("migrate applies the shipped migrations once and reports them")
    func migrate() throws {
        let workspace = try MigrationWorkspace()
        defer { workspace.cleanUp() }
        let shipped = try MigrationWorkspace.shippedIDs()
        let arguments = ["migrate", "--migrations", MigrationWorkspace.shipped.path] + workspace.databaseArguments
        let first = try runRoutemap(arguments)
        #expect(first.status == 0, "\(first.output)")
        for id in shipped { #expect(first.output.contains("applied \(id)"), "\(id): \(first.output)") }
        #expect(first.output.contains("is now at \(shipped.last ?? "?")"), "\(first.output)")
        #expect(try workspace.recordedIDs() == shipped)

        let second = try runRoutemap(arguments)
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("nothing to apply"), "\(second.output)")
        #expect(!second.output.contains("applied"), "\(second.output)")
        #expect(try workspace.recordedIDs() == shipped)
    }

    @Test("migrate --dry-run lists the pending migrations and applies none")
    func migrateDryRun() throws {
        let shipped = try MigrationWorkspace.shippedIDs()
        try #require(shipped.count >= 3)
        // A binary that knows the first two of the shipped migrations.
        let older = try MigrationWorkspace(keeping: { shipped.prefix(2).contains($0) })
        defer { older.cleanUp() }
        let later = Array(shipped.dropFirst(2))

        // A new database: every migration is pending; nothing is made.
        let fresh = try runRoutemap(["migrate", "--dry-run", "--migrations", MigrationWorkspace.shipped.path] + older.databaseArguments)
        #expect(fresh.status == 0, "\(fresh.output)")
        for id in shipped { #expect(fresh.output.contains("  \(id)\n"), "\(id): \(fresh.output)") }
        #expect(fresh.output.contains("dry run, nothing changed"), "\(fresh.output)")
        #expect(try older.tables() == [])
        #expect(!older.sqliteFileExists, "the dry run created the SQLite file")

        // A database at the second migration: the later ones are pending, and stay so.
        let upgrade = try runRoutemap(["migrate", "--migrations", older.migrations.path] + older.databaseArguments)
        #expect(upgrade.status == 0, "\(upgrade.output)")
        #expect(try older.recordedIDs() == Array(shipped.prefix(2)))
        let tables = try older.tables()
        #expect(tables.contains("menu_items"))
        let pending = try runRoutemap(["migrate", "--dry-run", "--migrations", MigrationWorkspace.shipped.path] + older.databaseArguments)
        #expect(pending.status == 0, "\(pending.output)")
        #expect(pending.output.contains("has \(later.count) pending"), "\(pending.output)")
        for id in later { #expect(pending.output.contains("  \(id)\n"), "\(id): \(pending.output)") }
        for id in shipped.prefix(2) { #expect(!pending.output.contains(id), "\(id): \(pending.output)") }
        #expect(try older.recordedIDs() == Array(shipped.prefix(2)))
        #expect(try older.tables() == tables)

        // Applied for real, then nothing is pending.
        let applied = try runRoutemap(["migrate", "--migrations", MigrationWorkspace.shipped.path] + older.databaseArguments)
        #expect(applied.status == 0, "\(applied.output)")
        #expect(try older.recordedIDs() == shipped)
        let upToDate = try runRoutemap(["migrate", "--dry-run", "--migrations", MigrationWorkspace.shipped.path] + older.databaseArguments)
        #expect(upToDate.status == 0, "\(upToDate.output)")
        #expect(upToDate.output.contains("nothing pending"), "\(upToDate.output)")
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
            (
                ["--suggested-tips", "10,10"],
                "--suggested-tips must be `none`, or 1 to 5 distinct whole percentages from 1 to 100, comma-separated, not '10,10'"
            ),
        ] {
            let refused = try runRoutemap(["serve", "--port", "0"] + arguments)
            #expect(refused.status != 0)
            #expect(refused.output.contains(message), "\(arguments): \(refused.output)")
        }
        // The shop's details on receipts: too long, a control character, nothing visible; by flag
        // and by environment, in one line, before anything starts (64: a bad setting).
        let rule = "must be 1 to 200 characters, not only spaces, without control characters"
        let long = String(repeating: "x", count: 201)
        for (arguments, environment, message) in [
            (["--shop-name", long], [:], "routemap: --shop-name \(rule), not '\(long.prefix(60))…'\n"),
            (["--shop-address", "1 Main St\nSpringfield"], [:], "routemap: --shop-address \(rule), not '1 Main St\nSpringfield'\n"),
            ([], ["ROUTEMAP_SHOP_TAX_ID": "   "], "routemap: ROUTEMAP_SHOP_TAX_ID \(rule), not '   '\n"),
            ([], ["ROUTEMAP_SHOP_NAME": "Tab\there"], "routemap: ROUTEMAP_SHOP_NAME \(rule), not 'Tab\there'\n"),
        ] as [([String], [String: String], String)] {
            let refused = try runRoutemap(["serve", "--port", "0"] + arguments, environment: environment)
            #expect(refused.status == 64 && refused.output == message, "\(arguments) \(environment): \(refused.output)")
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
