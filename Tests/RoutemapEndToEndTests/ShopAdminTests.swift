import Foundation
import GRDB
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// Devices managed from the command line and over HTTP, HTTPS, and the small command-line
/// promises, against the real binary.
@Suite("Shop administration, end to end")
struct ShopAdminTests {
    static let managerCode = "e2e-manager-code"

    /// Runs `routemap devices …` on the process's database.
    private func devices(_ arguments: [String], on process: RoutemapProcess) throws -> (status: Int32, output: String) {
        try runRoutemap(
            ["devices"] + arguments + process.databaseArguments + [
                "--migrations", RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations").path,
            ])
    }

    private func tokenLine(_ output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("token: ") }.map { String($0.dropFirst("token: ".count)) }
    }

    @Test("the first manager enrolled with `routemap devices enroll` on a running server's database works at once; a till gets 403")
    func firstManagerFromTheCommandLine() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        let till = try process.client()
        expectProblem(try till.request("GET", "/v1/devices"), 403, "manager_only")

        let enrolled = try devices(["enroll", "--name", "Owner"], on: process)
        #expect(enrolled.status == 0, "\(enrolled.output)")
        let token = try #require(tokenLine(enrolled.output), "\(enrolled.output)")
        let manager = try TestHTTPClient(port: process.port)
        manager.defaultHeaders = [("Authorization", "Bearer \(token)")]
        let listing = try manager.request("GET", "/v1/devices")
        #expect(listing.status == 200, "\(listing.text)")
        #expect(listing.json["devices"]?.array.map { $0["role"]?.string ?? "" } == ["till", "manager"])

        let listed = try devices(["list"], on: process)
        #expect(listed.status == 0)
        #expect(listed.output.contains("\tmanager\tOwner\t") && listed.output.contains("\ttill\te2e till\t"), "\(listed.output)")
        // Nothing the command prints is a stored token: only enroll and rotate print one, once.
        #expect(!listed.output.contains("rmt_"))
    }

    @Test("`routemap devices enroll --name` follows the API's rule: 100 characters however many bytes; a longer or blank name is one line, exit 64, and enrolls nothing")
    func enrollNameRule() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        let hundred = String(repeating: "👍🏽", count: 50)  // 100 scalars, 50 characters, 400 bytes
        let enrolled = try devices(["enroll", "--name", hundred, "--role", "till"], on: process)
        #expect(enrolled.status == 0, "\(enrolled.output)")
        for name in [String(repeating: "👍🏽", count: 60), "   "] {
            let refused = try devices(["enroll", "--name", name, "--role", "till"], on: process)
            #expect(refused.status == 64, "\(refused.output)")
            #expect(refused.output == "routemap: --name must be 1 to 100 characters, not only spaces, without control characters\n")
        }
        let listed = try devices(["list"], on: process).output.split(separator: "\n")
        #expect(listed.count(where: { $0.contains("\ttill\t") }) == 1, "\(listed)")
        #expect(listed.contains { $0.hasSuffix("\ttill\t\(hundred)") || $0.contains("\ttill\t\(hundred)\t") }, "\(listed)")
    }

    @Test("every command that opens a database refuses a malformed --database-url in one line, exit 64, and an unreachable PostgreSQL with 75 (try again later), never showing the password")
    func databaseURLRefusals() throws {
        let migrations = ["--migrations", RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations").path]
        let commands = [["devices", "list"], ["menu", "list"], ["migrate"], ["migrate", "--dry-run"], ["serve", "--port", "0"]]
        for command in commands {
            let malformed = try runRoutemap(command + ["--database-url", "postgres://routemap:Secret-1@127.0.0.1:notaport/routemap"] + migrations)
            #expect(malformed.status == 64, "\(command): \(malformed.output)")
            #expect(malformed.output.hasPrefix("routemap: --database-url must be"), "\(command): \(malformed.output)")
            #expect(malformed.output.filter { $0 == "\n" }.count == 1, "\(command): \(malformed.output)")
            #expect(!malformed.output.contains("Secret-1"), "\(command): \(malformed.output)")
            // Port 1 on loopback: nothing listens, the connection is refused at once. (serve and
            // migrate would keep trying for a minute: DatabaseWaitTests.)
            let once = ["serve", "migrate"].contains(command[0]) ? ["--database-wait", "0"] : []
            let unreachable = try runRoutemap(
                command + once + ["--database-url", "postgres://routemap:Secret-1@127.0.0.1:1/routemap"] + migrations, timeout: 30)
            #expect(unreachable.status == 75, "\(command): \(unreachable.output)")
            #expect(unreachable.output.hasPrefix("routemap: The database is unavailable"), "\(command): \(unreachable.output)")
            #expect(unreachable.output.filter { $0 == "\n" }.count == 1, "\(command): \(unreachable.output)")
            #expect(!unreachable.output.contains("Secret-1"), "\(command): \(unreachable.output)")
        }
    }

    @Test("every command that opens a database refuses a PostgreSQL database that does not exist in one line naming it, exit 66, as a missing SQLite file, without waiting", .enabled(if: TestPostgres.isEnabled))
    func missingPostgresDatabase() throws {
        let migrations = ["--migrations", RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations").path]
        let name = "routemap_test_missing_\(UUID().uuidString.prefix(8).lowercased())"
        let server = try #require(TestPostgres.serverURL)
        var components = try #require(URLComponents(string: server))
        components.path = "/" + name
        let url = try #require(components.string)
        let commands = [["devices", "list"], ["menu", "list"], ["migrate"], ["migrate", "--dry-run"], ["serve", "--port", "0"]]
        for command in commands {
            // serve and migrate wait for an unreachable server by default: not for this.
            let missing = try runRoutemap(command + ["--database-url", url] + migrations, timeout: 30)
            #expect(missing.status == 66, "\(command): \(missing.output)")
            #expect(missing.output.hasPrefix("routemap: ") && missing.output.contains("no database named \"\(name)\""), "\(command): \(missing.output)")
            #expect(missing.output.filter { $0 == "\n" }.count == 1, "\(command): \(missing.output)")
        }
    }

    @Test("`routemap devices` and `routemap menu` act on an existing routemap database only: a missing path is 66, another program's file 65, and neither is created nor changed")
    func commandsNeedTheDatabase() throws {
        let directory = try TemporaryDirectory()
        let typo = directory.path("shop.sqilte")
        let foreign = directory.path("notes.sqlite")
        try DatabaseQueue(path: foreign).write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        let migrations = ["--migrations", RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations").path]
        for command in [["devices", "list"], ["devices", "enroll", "--name", "Owner"], ["menu", "list"]] {
            let missing = try runRoutemap(command + ["--db", typo] + migrations)
            #expect(missing.status == 66, "\(command): \(missing.output)")
            #expect(missing.output.contains("routemap: no database at \(typo)"), "\(missing.output)")
            #expect(!FileManager.default.fileExists(atPath: typo), "\(command) created a database at a mistyped path")
            let other = try runRoutemap(command + ["--db", foreign] + migrations)
            #expect(other.status == 65, "\(command): \(other.output)")
            #expect(other.output.contains("is not a routemap database"), "\(other.output)")
            let tables = try DatabaseQueue(path: foreign).read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
            #expect(tables == ["notes"], "\(command) changed another program's file: \(tables)")
        }
        // Nor do `serve` and `migrate` turn it into one (a mistyped --db that names another file).
        let before = try Data(contentsOf: URL(fileURLWithPath: foreign))
        for command in [["serve", "--port", "0"], ["migrate"], ["migrate", "--dry-run"]] {
            let refused = try runRoutemap(command + ["--db", foreign] + migrations, timeout: 30)
            #expect(refused.status == 65, "\(command): \(refused.output)")
            #expect(refused.output.contains("is not a routemap database: it holds other tables (notes)"), "\(refused.output)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: foreign)) == before, "\(command) changed another program's file")
            #expect(!FileManager.default.fileExists(atPath: foreign + "-wal"), "\(command) opened it for writing")
        }
    }

    @Test("`routemap devices` and `routemap menu` refuse a database with migrations pending (65) and change nothing: they never migrate beside a running older server", .enabled(if: !TestPostgres.isEnabled))
    func commandsNeverMigrate() throws {
        let directory = try TemporaryDirectory()
        let older = directory.url.appendingPathComponent("older")
        try FileManager.default.createDirectory(at: older, withIntermediateDirectories: true)
        let shipped = RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations")
        for file in try FileManager.default.contentsOfDirectory(atPath: shipped.path) where file.hasSuffix(".sql") && file < "0010" {
            try FileManager.default.copyItem(at: shipped.appendingPathComponent(file), to: older.appendingPathComponent(file))
        }
        let database = directory.path("shop.sqlite")
        #expect(try runRoutemap(["migrate", "--db", database, "--migrations", older.path]).status == 0)
        func applied() throws -> [String] {
            try DatabaseQueue(path: database).read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier") }
        }
        let before = try applied()
        for command in [["devices", "list"], ["devices", "enroll", "--name", "Owner"], ["menu", "list"], ["menu", "category", "list"]] {
            let refused = try runRoutemap(command + ["--db", database, "--migrations", shipped.path])
            #expect(refused.status == 65, "\(command): \(refused.output)")
            #expect(refused.output.contains("pending, from 0010_device_roles: run `routemap migrate`"), "\(refused.output)")
            #expect(try applied() == before, "\(command) migrated the database")
        }
        #expect(try runRoutemap(["migrate", "--db", database, "--migrations", shipped.path]).status == 0)
        let listed = try runRoutemap(["menu", "list", "--db", database, "--migrations", shipped.path])
        #expect(listed.status == 0, "\(listed.output)")
    }

    @Test("a second `routemap serve` on a file a server uses stops with one line (exit 75); the first serves on, and the commands meant for beside it still work", .enabled(if: !TestPostgres.isEnabled))
    func oneServerPerFile() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        let migrations = ["--migrations", RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations").path]
        // Refused at once; a second server that wrongly starts is killed after 30 s, and fails here.
        let second = try runRoutemap(
            ["serve", "--port", "0", "--enrollment-code", RoutemapProcess.enrollmentCode] + process.databaseArguments + migrations, timeout: 30)
        #expect(second.status == 75, "\(second.output)")
        #expect(
            second.output.trimmingCharacters(in: .whitespacesAndNewlines)
                == "routemap: another routemap serve is using \(process.databasePath): run one server per database file (several nodes run on PostgreSQL)")
        #expect(try process.client().request("GET", "/v1/launch").status == 200)
        #expect(try runRoutemap(["menu", "list"] + process.databaseArguments + migrations).status == 0)
    }

    @Test("`routemap devices revoke` on the database file: the running server refuses the token within its recheck interval")
    func revokeFromTheCommandLine() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        let till = try process.client()
        #expect(try till.request("GET", "/v1/launch").status == 200)  // the token is cached
        let deviceId = try #require(try devices(["list"], on: process).output.split(separator: "\t").first.map(String.init))
        let revoked = try devices(["revoke", deviceId], on: process)
        #expect(revoked.status == 0, "\(revoked.output)")
        let deadline = Date().addingTimeInterval(3)
        var status = 200
        while status == 200, Date() < deadline {
            status = try till.request("GET", "/v1/menu/items").status
            if status == 200 { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(status == 401)
        expectProblem(try till.request("GET", "/v1/launch"), 401, "unauthorized")
        #expect(try devices(["revoke", "dev_nobody"], on: process).status != 0)
        // A revoked device gets no new token.
        #expect(try devices(["rotate", deviceId], on: process).status != 0)
    }

    @Test("`routemap devices rotate`: the new token works; once it is used the old one is refused")
    func rotateFromTheCommandLine() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        let old = try process.client()
        #expect(try old.request("GET", "/v1/launch").status == 200)
        let deviceId = try #require(try devices(["list"], on: process).output.split(separator: "\t").first.map(String.init))
        let rotated = try devices(["rotate", deviceId], on: process)
        let token = try #require(tokenLine(rotated.output), "\(rotated.output)")
        let fresh = try TestHTTPClient(port: process.port)
        fresh.defaultHeaders = [("Authorization", "Bearer \(token)")]
        #expect(try fresh.request("GET", "/v1/launch").status == 200)
        let deadline = Date().addingTimeInterval(3)
        var status = 200
        while status == 200, Date() < deadline {
            status = try old.request("GET", "/v1/launch").status
            if status == 200 { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(status == 401)
    }

    @Test("a till revoked while its request is on the wire: the request, complete after the revocation, is refused and changes nothing")
    func revokedDuringAnInFlightRequest() throws {
        let process = try RoutemapProcess(arguments: ["--manager-enrollment-code", Self.managerCode])
        defer { process.cleanUp() }
        let till = try process.client()
        let bill = try till.request("POST", "/v1/bills").json["bill"]!["id"]!.string
        let managerClient = try process.client(authorized: false)
        let enrolled = try managerClient.json(
            "POST", "/v1/devices", ["name": "Owner", "enrollmentCode": .string(Self.managerCode), "role": "manager"])
        try #require(enrolled.status == 201, "\(enrolled.text)")
        managerClient.defaultHeaders = [("Authorization", "Bearer \(enrolled.json["token"]!.string)")]
        let tillId = try #require(
            managerClient.request("GET", "/v1/devices").json["devices"]?.array.first { $0["role"]?.string == "till" }?["deviceId"]?.string)

        // The till's request: head and half its body sent, the rest after the revocation.
        let body = Array(#"{"menuItemId":"latte","quantity":1}"#.utf8)
        let head = "POST /v1/bills/\(bill)/items HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(try process.token())\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        try till.sendRaw(Array(head.utf8) + body.prefix(10))
        let revoked = try managerClient.request("POST", "/v1/devices/\(tillId)/revoke")
        #expect(revoked.status == 200, "\(revoked.text)")
        try till.sendRaw(Array(body.dropFirst(10)))
        expectProblem(try till.readResponse(method: "POST"), 401, "unauthorized")
        let lines = try managerClient.request("GET", "/v1/devices")  // the manager still works
        #expect(lines.status == 200)
        // The bill is unchanged: read from the file.
        let check = try RoutemapProcess.lineCount(bill: bill, in: process)
        #expect(check == 0)
    }

    @Test("HTTPS with --tls-cert/--tls-key: curl trusting the test's own CA gets health, enrollment and launch; plain HTTP gets nothing")
    func https() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routemap-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cert = directory.appendingPathComponent("cert.pem").path, key = directory.appendingPathComponent("key.pem").path
        let made = try run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", cert,
                "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        try #require(made.status == 0, "\(made.output)")
        let process = try RoutemapProcess(arguments: ["--tls-cert", cert, "--tls-key", key])
        defer { process.cleanUp() }
        #expect(process.outputText.contains("listening on https://127.0.0.1:\(process.port)"))
        let base = "https://127.0.0.1:\(process.port)"
        let health = try run("/usr/bin/curl", ["-sS", "--cacert", cert, "-w", "\n%{http_code}", "\(base)/healthz"])
        #expect(health.status == 0 && health.output.hasSuffix("\n200"), "\(health.output)")
        let enrolled = try run(
            "/usr/bin/curl",
            ["-sS", "--cacert", cert, "--json", #"{"name":"tls till","enrollmentCode":"\#(RoutemapProcess.enrollmentCode)"}"#, "\(base)/v1/devices"])
        let token = try #require(try JSON.parse(Array(enrolled.output.utf8))["token"]?.stringValue, "\(enrolled.output)")
        let launch = try run("/usr/bin/curl", ["-sS", "--cacert", cert, "-H", "Authorization: Bearer \(token)", "\(base)/v1/launch"])
        #expect(launch.output.contains(#""op":"setRoot""#), "\(launch.output.prefix(300))")
        // A query with more arguments than the connection's memory holds: 414 problem+json over
        // TLS too (written past the TLS session it was garbage to the client), with the
        // request's own id.
        let query = (0..<600).map { "a\($0)=1" }.joined(separator: "&")
        let long = try run(
            "/usr/bin/curl", ["-sS", "--cacert", cert, "-D", "-", "-H", "X-Request-Id: tls-414", "\(base)/healthz?\(query)"])
        #expect(long.status == 0, "\(long.output)")
        #expect(long.output.hasPrefix("HTTP/1.1 414"), "\(long.output.prefix(300))")
        #expect(long.output.lowercased().contains("x-request-id: tls-414"), "\(long.output.prefix(500))")
        #expect(long.output.contains(#""code":"uri_too_long""#), "\(long.output.suffix(300))")
        // Without the CA the certificate is refused by the client; plain HTTP gets no HTTP answer.
        #expect(try run("/usr/bin/curl", ["-sS", "\(base)/healthz"]).status != 0)
        let plain = try run("/usr/bin/curl", ["-sS", "-m", "3", "http://127.0.0.1:\(process.port)/healthz"])
        #expect(!plain.output.contains("\"ok\""), "\(plain.output)")
        // The container's HEALTHCHECK: HTTPS when told, when ROUTEMAP_TLS_CERT is set, and when
        // plain HTTP gets no HTTP answer (a server given --tls-cert on its command line).
        for (arguments, environment) in [(["--tls"], [:]), ([], ["ROUTEMAP_TLS_CERT": cert]), ([], [String: String]())] {
            let probe = try runRoutemap(["healthcheck", "--port", String(process.port)] + arguments, environment: environment)
            #expect(probe.status == 0, "\(arguments) \(environment): \(probe.output)")
        }
    }

    @Test("healthcheck --tls against a plain-HTTP server is unhealthy (exit 1), with the TLS failure in one line")
    func healthcheckTLSAgainstPlain() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        let probe = try runRoutemap(["healthcheck", "--tls", "--port", String(process.port)])
        #expect(probe.status == 1, "\(probe.output)")
        #expect(probe.output.hasPrefix("routemap: unhealthy: TLS: handshake:"), "\(probe.output)")
    }

    @Test("--tls-cert without --tls-key, or an unreadable file, stops start-up with one line")
    func tlsRefusals() throws {
        let alone = try runRoutemap(["serve", "--port", "0", "--tls-cert", "/nonexistent.pem"])
        #expect(alone.status == 64, "\(alone.output)")
        #expect(alone.output.contains("routemap: --tls-cert (ROUTEMAP_TLS_CERT) must be given with --tls-key (ROUTEMAP_TLS_KEY)"), "\(alone.output)")
        // Set by the environment alone, the line names the variables too.
        let fromEnvironment = try runRoutemap(["serve", "--port", "0"], environment: ["ROUTEMAP_TLS_CERT": "/nonexistent.pem"])
        #expect(fromEnvironment.status == 64, "\(fromEnvironment.output)")
        #expect(fromEnvironment.output.contains("ROUTEMAP_TLS_CERT") && fromEnvironment.output.contains("ROUTEMAP_TLS_KEY"), "\(fromEnvironment.output)")
        let missing = try runRoutemap(["serve", "--port", "0", "--tls-cert", "/nonexistent.pem", "--tls-key", "/nonexistent.key"])
        #expect(missing.status == 64, "\(missing.output)")
        #expect(missing.output.contains("routemap: --tls-cert: cannot read '/nonexistent.pem'"), "\(missing.output)")
    }

    @Test("--manager-enrollment-code equal to the till code is refused")
    func managerCodeMustDiffer() throws {
        let same = try runRoutemap(["serve", "--port", "0", "--enrollment-code", "same-code-1", "--manager-enrollment-code", "same-code-1"])
        #expect(same.status == 64)
        #expect(same.output.contains("--manager-enrollment-code must be 8 to 200 bytes, not the till code"), "\(same.output)")
        #expect(!same.output.contains("same-code-1"))
    }

    @Test("routemap --version prints the version; healthcheck with nothing listening exits 1, not a usage error")
    func smallPromises() throws {
        let version = try runRoutemap(["--version"])
        #expect(version.status == 0)
        #expect(version.output.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(version.output)")
        let unhealthy = try runRoutemap(["healthcheck", "--port", "1"])
        #expect(unhealthy.status == 1, "\(unhealthy.output)")
        #expect(unhealthy.output.hasPrefix("routemap: unhealthy: cannot connect"), "\(unhealthy.output)")
        #expect(!unhealthy.output.contains("USAGE"))
    }

    /// Runs a program to completion; its status and combined output.
    private func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

extension RoutemapProcess {
    /// The lines of `bill` in the process's database, read directly.
    static func lineCount(bill: String, in process: RoutemapProcess) throws -> Int {
        if process.onPostgres {
            return Int(try TestPostgres.psql(process.databasePath, "SELECT count(*) FROM bill_lines WHERE bill_id = '\(bill)'")) ?? -1
        }
        let queue = try DatabaseQueue(path: process.databasePath)
        return try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM bill_lines WHERE bill_id = ?", arguments: [bill]) ?? -1 }
    }
}

/// The live menu against the real binary and its SQLite file.
@Suite("Live menu, end to end")
struct LiveMenuEndToEndTests {
    static let managerCode = "e2e-manager-code"

    @Test("a price changed through the API is what the next line costs (the writer's menu is reloaded), and every till lists it")
    func priceChangeThroughTheAPI() throws {
        let process = try RoutemapProcess(arguments: ["--manager-enrollment-code", Self.managerCode])
        defer { process.cleanUp() }
        let till = try process.client()
        let first = try till.request("POST", "/v1/bills").json["bill"]!["id"]!.string
        _ = try till.json("POST", "/v1/bills/\(first)/items", ["menuItemId": "latte", "quantity": 1])
        let manager = try process.client(authorized: false)
        let enrolled = try manager.json("POST", "/v1/devices", ["name": "Owner", "enrollmentCode": .string(Self.managerCode), "role": "manager"])
        manager.defaultHeaders = [("Authorization", "Bearer \(enrolled.json["token"]!.string)")]
        #expect(try manager.json("PATCH", "/v1/menu/items/latte", ["priceMinor": 525]).status == 200)
        #expect(
            try manager.json("POST", "/v1/menu/items", ["id": "oat-latte", "name": "Oat Latte", "category": "coffee", "priceMinor": 550])
                .status == 201)
        let second = try till.request("POST", "/v1/bills").json["bill"]!["id"]!.string
        let added = try till.json("POST", "/v1/bills/\(second)/items", ["menuItemId": "latte", "quantity": 1])
        #expect(added.json["bill"]?["lines"]?.array.first?["unitPriceMinor"]?.int == 525, "\(added.text)")
        #expect(try till.json("POST", "/v1/bills/\(second)/items", ["menuItemId": "oat-latte", "quantity": 1]).status == 200)
        #expect(try till.request("GET", "/v1/bills/\(first)").json["lines"]?.array.first?["unitPriceMinor"]?.int == 475)
        let other = try process.client()
        let listing = try other.request("GET", "/v1/menu/items").json["items"]?.array ?? []
        #expect(listing.first { $0["id"]?.string == "latte" }?["priceMinor"]?.int == 525)
        #expect(listing.contains { $0["id"]?.string == "oat-latte" })
        // Migration 0011 made a category of each category the items had, named after it, in menu order.
        let categories = try other.request("GET", "/v1/menu/categories").json["categories"]?.array ?? []
        #expect(categories.map { $0["id"]?.string ?? "" } == ["coffee", "tea", "bakery", "food"])
        #expect(categories.map { $0["name"]?.string ?? "" } == ["Coffee", "Tea", "Bakery", "Food"])
    }

    @Test("stock counts: a manager counts croissants, tills sell them down to 0, the menu's ETag changes each time, another till (node) sees it, and a sold-out add is refused and changes nothing")
    func stockCounts() throws {
        let process = try RoutemapProcess(arguments: ["--manager-enrollment-code", Self.managerCode])
        defer { process.cleanUp() }
        let till = try process.client()
        let manager = try process.client(authorized: false)
        let enrolled = try manager.json("POST", "/v1/devices", ["name": "Owner", "enrollmentCode": .string(Self.managerCode), "role": "manager"])
        manager.defaultHeaders = [("Authorization", "Bearer \(enrolled.json["token"]!.string)")]
        // Another till: on PostgreSQL on another node (its menu current within a second), on SQLite on this one.
        let node = TestPostgres.isEnabled ? try RoutemapProcess(databasePath: process.databasePath) : nil
        defer { node?.cleanUp() }
        let other = try (node ?? process).client()
        let croissant = { (client: TestHTTPClient) throws -> JSON? in
            try client.request("GET", "/v1/menu/items").json["items"]?.array.first { $0["id"]?.string == "croissant" }
        }
        /// The listing once it is not `etag` (within 3 s): its new ETag.
        func changed(from etag: String, _ client: TestHTTPClient) throws -> String? {
            let deadline = Date().addingTimeInterval(3)
            var listing = try client.request("GET", "/v1/menu/items", headers: [("If-None-Match", etag)])
            while listing.status == 304, Date() < deadline {
                Thread.sleep(forTimeInterval: 0.1)
                listing = try client.request("GET", "/v1/menu/items", headers: [("If-None-Match", etag)])
            }
            return listing.status == 200 ? listing.header("ETag") : nil
        }
        var etag = try #require(till.request("GET", "/v1/menu/items").header("ETag"))
        #expect(try croissant(till)?["stock"] == nil, "not counted: no stock member")
        expectProblem(try manager.json("PATCH", "/v1/menu/items/croissant", ["stock": 100_001]), 400, "invalid_field")
        expectProblem(try manager.json("PATCH", "/v1/menu/items/croissant", ["stock": -1]), 400, "invalid_field")
        let set = try manager.json("PATCH", "/v1/menu/items/croissant", ["stock": 3])
        #expect(set.status == 200 && set.json["item"]?["stock"]?.int == 3, "\(set.text)")
        // At once on this node: the ETag the till held is stale.
        #expect(try till.request("GET", "/v1/menu/items", headers: [("If-None-Match", etag)]).status == 200)
        etag = try #require(try changed(from: etag, till))
        #expect(try croissant(till)?["stock"]?.int == 3)

        // Two on one bill, one on another: all three sold by their payments.
        for quantity in [2, 1] {
            let bill = try till.request("POST", "/v1/bills").json["bill"]!["id"]!.string
            _ = try till.json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "croissant", "quantity": .int(Int64(quantity))])
            let total = try till.json("POST", "/v1/bills/\(bill)/checkout", [:]).json["bill"]!["totalMinor"]!.int
            let paid = try till.json("POST", "/v1/bills/\(bill)/pay", ["method": "card", "amountMinor": .int(total)], headers: [("Idempotency-Key", UUID().uuidString)])
            #expect(paid.status == 200, "\(paid.text)")
            #expect(try till.request("GET", "/v1/menu/items", headers: [("If-None-Match", etag)]).status == 200, "the payment changed the menu")
            etag = try #require(try changed(from: etag, till))
        }
        #expect(try croissant(till)?["stock"]?.int == 0)
        // The other till sees it sold out (within a second on another node), on its menu screen too.
        let deadline = Date().addingTimeInterval(3)
        while try croissant(other)?["stock"]?.int != 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(try croissant(other)?["stock"]?.int == 0)
        let bill = try other.request("POST", "/v1/bills").json["bill"]!["id"]!.string
        let before = try other.request("GET", "/v1/bills/\(bill)").text
        let refused = try other.json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "croissant", "quantity": 1])
        expectProblem(refused, 422, "menu_item_unavailable")
        #expect(refused.json["detail"]?.string.contains("sold out") == true, "\(refused.text)")
        #expect(try other.request("GET", "/v1/bills/\(bill)").text == before)
        // Stop counting: null (not absent); it sells again.
        let uncounted = try manager.json("PATCH", "/v1/menu/items/croissant", ["stock": .null])
        #expect(uncounted.status == 200 && uncounted.json["item"]?["stock"] == nil, "\(uncounted.text)")
        let untilSold = Date().addingTimeInterval(3)
        var added = try other.json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "croissant", "quantity": 1])
        while added.status != 200, Date() < untilSold {
            Thread.sleep(forTimeInterval: 0.1)
            added = try other.json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "croissant", "quantity": 1])
        }
        #expect(added.status == 200, "\(added.text)")
    }

    @Test("`routemap menu` on a running server's file: the listing and the next line change within a second; retiring keeps history")
    func changeFromTheCommandLine() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        let till = try process.client()
        let bill = try till.request("POST", "/v1/bills").json["bill"]!["id"]!.string
        _ = try till.json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "bagel", "quantity": 1])
        let etag = try #require(till.request("GET", "/v1/menu/items").header("ETag"))
        let arguments = process.databaseArguments + ["--migrations", RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations").path]
        let set = try runRoutemap(["menu", "set", "espresso", "--price-minor", "325"] + arguments)
        #expect(set.status == 0, "\(set.output)")
        let retired = try runRoutemap(["menu", "retire", "bagel"] + arguments)
        #expect(retired.status == 0, "\(retired.output)")
        #expect(try runRoutemap(["menu", "set", "bagel", "--price-minor", "1"] + arguments).status == 65)
        #expect(try runRoutemap(["menu", "add", "latte", "--name", "x", "--category", "coffee", "--price-minor", "1"] + arguments).status == 65)
        let deadline = Date().addingTimeInterval(3)
        var listing = try till.request("GET", "/v1/menu/items", headers: [("If-None-Match", etag)])
        while listing.status == 304, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            listing = try till.request("GET", "/v1/menu/items", headers: [("If-None-Match", etag)])
        }
        #expect(listing.status == 200)
        let items = listing.json["items"]?.array ?? []
        #expect(items.first { $0["id"]?.string == "espresso" }?["priceMinor"]?.int == 325)
        #expect(!items.contains { $0["id"]?.string == "bagel" })
        let next = try till.json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "espresso", "quantity": 1])
        #expect(next.json["bill"]?["lines"]?.array.last?["unitPriceMinor"]?.int == 325, "\(next.text)")
        expectProblem(try till.json("POST", "/v1/bills/\(bill)/items", ["menuItemId": "bagel", "quantity": 1]), 422, "unknown_menu_item")
        #expect(try till.request("GET", "/v1/bills/\(bill)").json["lines"]?.array.first?["menuItemId"]?.string == "bagel")
        let list = try runRoutemap(["menu", "list"] + arguments)
        #expect(list.output.contains("espresso\tcoffee\tEspresso\t325\tUSD\tavailable") && !list.output.contains("bagel"), "\(list.output)")
    }

    @Test("`routemap menu add` prices an item in the menu's currency; another one given is refused (65, nothing added), a malformed one is 64", .enabled(if: !TestPostgres.isEnabled))
    func currencyFromTheCommandLine() throws {
        let directory = try TemporaryDirectory()
        let arguments = ["--db", directory.path("shop.sqlite"), "--migrations", RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations").path]
        #expect(try runRoutemap(["migrate"] + arguments).status == 0)
        func run(_ words: [String], _ environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
            try runRoutemap(["menu"] + words + arguments, environment: environment)
        }
        let scone = ["add", "scone", "--name", "Scone", "--category", "bakery", "--price-minor", "300"]
        let euros = try run(scone + ["--currency", "EUR"])
        #expect(euros.status == 65 && euros.output.contains("is EUR, but the 18 items on the menu are priced in USD"), "\(euros.output)")
        let fromEnvironment = try run(scone, ["ROUTEMAP_CURRENCY": "EUR"])
        #expect(fromEnvironment.status == 65, "\(fromEnvironment.output)")
        let malformed = try run(scone, ["ROUTEMAP_CURRENCY": "euro"])
        #expect(malformed.output == "routemap: ROUTEMAP_CURRENCY must be an ISO 4217 code such as USD, not 'euro'\n" && malformed.status == 64)
        #expect(try !run(["list"]).output.contains("scone"))

        // A menu retired to nothing takes a new currency, and then keeps it. (`menu retire`, one
        // process per item, is tested above; 18 of them here would hold a test thread for seconds.)
        #expect(try run(["retire", "espresso"]).status == 0)
        try DatabaseQueue(path: arguments[1]).write { try $0.execute(sql: "UPDATE menu_items SET retired_at = '2026-01-01T00:00:00.000Z' WHERE retired_at IS NULL") }
        let first = try run(scone + ["--currency", "EUR"])
        #expect(first.status == 0 && first.output.contains("scone\tbakery\tScone\t300\tEUR"), "\(first.output)")
        let second = try run(["add", "bun", "--name", "Bun", "--category", "bakery", "--price-minor", "250"])
        #expect(second.status == 0 && second.output.contains("\t250\tEUR"), "\(second.output)")
    }

    @Test("`routemap menu category` on a running server's file: add, rename and retire a category; a non-empty or unknown one is refused and changes nothing")
    func categoriesFromTheCommandLine() throws {
        let process = try RoutemapProcess()
        defer { process.cleanUp() }
        let till = try process.client()
        let arguments = process.databaseArguments + ["--migrations", RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations").path]
        func run(_ words: [String]) throws -> (status: Int32, output: String) { try runRoutemap(["menu"] + words + arguments) }

        let unknown = try run(["add", "scone", "--name", "Scone", "--category", "bakes", "--price-minor", "300"])
        #expect(unknown.status == 65 && unknown.output == "routemap: no category 'bakes' on the menu (add it first: routemap menu category add)\n", "\(unknown.output)")
        let added = try run(["category", "add", "bakes", "--name", "Bakes"])
        #expect(added.status == 0 && added.output.contains("added bakes\tBakes"), "\(added.output)")
        #expect(try run(["add", "scone", "--name", "Scone", "--category", "bakes", "--price-minor", "300"]).status == 0)
        let renamed = try run(["category", "rename", "bakes", "--name", "Fresh bakes"])
        #expect(renamed.status == 0 && renamed.output.contains("renamed bakes\tFresh bakes"), "\(renamed.output)")

        let notEmpty = try run(["category", "retire", "bakes"])
        #expect(notEmpty.status == 65 && notEmpty.output.contains("items on the menu are in category 'bakes'"), "\(notEmpty.output)")
        let missing = try run(["category", "rename", "nope", "--name", "x"])
        #expect(missing.status == 65 && missing.output.contains("no category 'nope'"), "\(missing.output)")
        #expect(try run(["category", "add", "Bad Id", "--name", "x"]).status == 64)

        // The server sees the other process's changes within a second (the menu revision): the
        // category as last renamed, which a check between the add and the rename may precede.
        let deadline = Date().addingTimeInterval(10)
        var categories: [JSON] = []
        repeat {
            categories = try till.request("GET", "/v1/menu/categories").json["categories"]?.array ?? []
            if categories.contains(where: { $0["id"]?.string == "bakes" && $0["name"]?.string == "Fresh bakes" }) { break }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        #expect(categories.last?["id"]?.string == "bakes" && categories.last?["name"]?.string == "Fresh bakes", "\(categories)")

        #expect(try run(["retire", "scone"]).status == 0)
        let retired = try run(["category", "retire", "bakes"])
        #expect(retired.status == 0 && retired.output.contains("retired bakes"), "\(retired.output)")
        let again = try run(["category", "add", "bakes", "--name", "Bakes"])
        #expect(again.status == 65 && again.output.contains("a category 'bakes' exists or existed"), "\(again.output)")
        let list = try run(["category", "list"])
        #expect(list.status == 0 && list.output.contains("coffee\t") && !list.output.contains("bakes"), "\(list.output)")
    }
}
