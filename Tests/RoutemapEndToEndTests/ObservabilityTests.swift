import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// Settings, request ids, the access log and `/metrics`, against the real binary.
@Suite("Settings, logs and metrics, end to end")
struct ObservabilityTests {
    // MARK: Metrics

    @Test("/metrics counts requests by route pattern and status, payments by method, unpaid bills and group commits")
    func metricsMove() throws {
        let server = try RoutemapProcess()
        defer { server.cleanUp() }
        let client = try server.client()
        let before = try scrape(server)

        #expect(try client.request("GET", "/v1/menu/items").status == 200)
        #expect(try client.request("GET", "/v1/menu/items").status == 200)
        let billId = try #require(client.request("POST", "/v1/bills").json["bill"]?["id"]?.stringValue)
        #expect(try client.json("POST", "/v1/bills/\(billId)/items", ["menuItemId": "latte", "quantity": 2]).status == 200)
        #expect(try client.request("GET", "/v1/bills/bill_nope").status == 404)
        // Twice: on PostgreSQL the second is answered from the node's bill cache, confirmed.
        for _ in 1...2 { #expect(try client.request("GET", "/v1/bills/\(billId)").status == 200) }
        let middle = try scrape(server)
        #expect(middle.value("routemap_bills_unpaid", ["status": "open"]) == 1)

        let checkout = try client.request("POST", "/v1/bills/\(billId)/checkout")
        let total = try #require(checkout.json["bill"]?["totalMinor"]?.int64Value)
        #expect(try scrape(server).value("routemap_bills_unpaid", ["status": "checked_out"]) == 1)
        let pay = try client.json(
            "POST", "/v1/bills/\(billId)/pay", ["method": "cash", "amountMinor": .int(total), "tenderedMinor": .int(total + 100)],
            headers: [("Idempotency-Key", "metrics-pay-1")])
        #expect(pay.status == 200, "\(pay.text)")
        // A replay is the same payment: not counted again.
        let replay = try client.json(
            "POST", "/v1/bills/\(billId)/pay", ["method": "cash", "amountMinor": .int(total), "tenderedMinor": .int(total + 100)],
            headers: [("Idempotency-Key", "metrics-pay-1")])
        #expect(replay.header("Idempotent-Replayed") == "true")
        // Methods a client makes up are counted as one, `other`: no series of their own.
        for method in ["FROB", "BLORT"] { #expect(try client.request(method, "/v1/menu/items").status == 405) }
        let after = try scrape(server)

        func moved(_ name: String, _ labels: [String: String]) -> Double {
            (after.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0)
        }
        #expect(moved("routemap_http_requests_total", ["method": "GET", "route": "/v1/menu/items", "status": "200"]) == 2)
        #expect(moved("routemap_http_requests_total", ["method": "POST", "route": "/v1/bills", "status": "201"]) == 1)
        #expect(moved("routemap_http_requests_total", ["method": "GET", "route": "/v1/bills/{billId}", "status": "404"]) == 1)
        #expect(moved("routemap_http_requests_total", ["method": "POST", "route": "/v1/bills/{billId}/pay", "status": "200"]) == 2)
        #expect(moved("routemap_http_requests_total", ["method": "other", "route": "/v1/menu/items", "status": "405"]) == 2)
        #expect(!after.text.contains("FROB") && !after.text.contains("BLORT"))
        #expect(moved("routemap_http_request_duration_seconds_count", ["route": "/v1/menu/items"]) == 4)
        #expect(moved("routemap_payments_total", ["method": "cash"]) == 1)
        #expect(moved("routemap_payment_amount_minor_total", ["method": "cash"]) == Double(total))
        #expect(moved("routemap_payments_total", ["method": "card"]) == 0)
        // The bill is paid; paying opened the next one, which is open.
        #expect(after.value("routemap_bills_unpaid", ["status": "checked_out"]) == 0)
        #expect(after.value("routemap_bills_unpaid", ["status": "open"]) == 1)
        // Every write so far committed in a batch: create, add, checkout, pay (SQLite's group
        // commit; PostgreSQL commits each transaction on its own connection).
        if TestPostgres.isEnabled {
            #expect(after.value("routemap_sqlite_wal_pages", [:]) == nil)
        } else {
            #expect(moved("routemap_group_commit_batch_size_count", [:]) >= 4)
            // The writes are in the log, far from the 10,000 pages that start a checkpoint.
            #expect(after.value("routemap_sqlite_wal_pages", [:]) ?? 0 > 0)
        }
        #expect(after.value("routemap_database_errors_total", [:]) == 0)
        if TestPostgres.isEnabled {
            #expect(moved("routemap_bill_cache_reads_total", ["outcome": "confirmed"]) >= 1)
            #expect(moved("routemap_bill_cache_reads_total", ["outcome": "not_cached"]) >= 1)
        } else {
            #expect(after.value("routemap_bill_cache_reads_total", ["outcome": "confirmed"]) == nil)
        }
        // The scrape that is answering is in flight.
        #expect(after.value("routemap_http_requests_in_flight", [:]) ?? 0 >= 1)
        // No raw path (with a bill id) is ever a label.
        #expect(!after.text.contains(billId))
    }

    @Test("429s of the rate limiter are counted")
    func rateLimited() throws {
        let server = try RoutemapProcess(arguments: ["--rate-limit", "1"])
        defer { server.cleanUp() }
        let client = try server.client()
        var refused = 0
        for _ in 0..<5 where try client.request("GET", "/v1/menu/items").status == 429 { refused += 1 }
        #expect(refused >= 3)
        let metrics = try scrape(server)
        #expect(metrics.value("routemap_rate_limited_total", [:]) == Double(refused))
        #expect(metrics.value("routemap_http_requests_total", ["method": "GET", "route": "/v1/menu/items", "status": "429"]) == Double(refused))
    }

    @Test("with --metrics-token, /metrics needs exactly that token; a device token does not open it")
    func metricsToken() throws {
        let token = "metrics-secret-0123456789"
        let server = try RoutemapProcess(arguments: ["--metrics-token", token])
        defer { server.cleanUp() }
        let anonymous = try server.client(authorized: false)
        let refused = try anonymous.request("GET", "/metrics")
        #expect(refused.status == 401)
        #expect(refused.header("WWW-Authenticate") != nil)
        #expect(try server.client().request("GET", "/metrics").status == 401)
        #expect(try anonymous.request("GET", "/metrics", headers: [("Authorization", "Bearer \(token)x")]).status == 401)
        let scraped = try anonymous.request("GET", "/metrics", headers: [("Authorization", "Bearer \(token)")])
        #expect(scraped.status == 200)
        #expect(scraped.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
    }

    // MARK: Request ids and the log

    @Test("X-Request-Id: a well-formed one is echoed, any other replaced by a new one, on every kind of answer")
    func requestIds() throws {
        let server = try RoutemapProcess()
        defer { server.cleanUp() }
        let client = try server.client()
        // Prepared (cached) answer, handler answer, router refusal, admission refusal.
        for (method, path) in [("GET", "/v1/menu/items"), ("POST", "/v1/bills"), ("GET", "/nowhere"), ("GET", "/healthz")] {
            let echoed = try client.request(method, path, headers: [("X-Request-Id", "client-id.42:a_b")])
            #expect(echoed.header("X-Request-Id") == "client-id.42:a_b", "\(method) \(path)")
        }
        let unauthorized = try server.client(authorized: false).request("GET", "/v1/menu/items", headers: [("X-Request-Id", "abc")])
        #expect(unauthorized.status == 401)
        #expect(unauthorized.header("X-Request-Id") == "abc")
        var made = Set<String>()
        for bad in ["has space", String(repeating: "x", count: 65), "semi;colon", ""] {
            let answer = try client.request("GET", "/v1/menu/items", headers: bad.isEmpty ? [] : [("X-Request-Id", bad)])
            let id = try #require(answer.header("X-Request-Id"))
            #expect(id != bad)
            #expect(id.range(of: #"^[0-9a-z]{8}-[0-9a-z]+$"#, options: .regularExpression) != nil, "\(id)")
            made.insert(id)
        }
        #expect(made.count == 4, "generated ids repeat: \(made)")
    }

    @Test("a whole run's log: JSON lines, one access line per request with the route pattern, and no secret anywhere")
    func logHasNoSecrets() throws {
        let metricsToken = "metrics-token-never-logged-42"
        let server = try RoutemapProcess(arguments: ["--metrics-token", metricsToken, "--log-level", "trace", "--access-log", "on"])
        let token = try server.token()
        let client = try server.client()
        let billId = try #require(client.request("POST", "/v1/bills", headers: [("X-Request-Id", "flow-1")]).json["bill"]?["id"]?.stringValue)
        _ = try client.json("POST", "/v1/bills/\(billId)/items", ["menuItemId": "latte", "quantity": 1])
        let total = try #require(client.request("POST", "/v1/bills/\(billId)/checkout").json["bill"]?["totalMinor"]?.int64Value)
        _ = try client.json(
            "POST", "/v1/bills/\(billId)/pay", ["method": "card", "amountMinor": .int(total)], headers: [("Idempotency-Key", "log-pay")])
        _ = try client.request("GET", "/v1/bills/\(billId)", headers: [("Authorization", "Bearer not-a-token-\(token)")])
        _ = try server.client(authorized: false).request("GET", "/metrics", headers: [("Authorization", "Bearer \(metricsToken)")])
        _ = try server.client(authorized: false).json("POST", "/v1/devices", ["name": "x", "enrollmentCode": .string("wrong-" + RoutemapProcess.enrollmentCode)])
        #expect(server.stop() == 0)
        let output = server.outputText
        server.cleanUp()

        for secret in [token, RoutemapProcess.enrollmentCode, metricsToken] {
            #expect(!output.contains(secret), "the log holds a secret: \(secret)")
        }
        let lines = output.split(separator: "\n").filter { $0.hasPrefix("{") }
        var access: [JSON] = []
        for line in lines {
            let parsed = try JSON.parse(Array(line.utf8))
            #expect(parsed["time"] != nil && parsed["level"] != nil && parsed["message"] != nil, "\(line)")
            if parsed["message"] == "request" { access.append(parsed) }
        }
        #expect(lines.contains { $0.contains(#""message":"routemap listening""#) })
        #expect(lines.contains { $0.contains(#""message":"routemap stopping""#) })
        #expect(lines.contains { $0.contains(#""message":"routemap stopped""#) })
        let created = try #require(access.first { $0["requestId"] == "flow-1" })
        #expect(created["method"] == "POST")
        #expect(created["route"] == "/v1/bills")
        #expect(created["status"] == 201)
        #expect(created["bytes"]?.int64Value ?? 0 > 0)
        #expect(created["durationMs"] != nil)
        #expect(created["device"]?.stringValue?.hasPrefix("dev_") == true)
        #expect(access.contains { $0["route"] == "/v1/bills/{billId}/pay" && $0["status"] == 200 })
        #expect(access.contains { $0["route"] == "/v1/bills/{billId}" && $0["status"] == 401 && $0["device"] == nil })
        // The raw path never reaches an access line.
        #expect(!access.contains { $0.encodedText.contains(billId) })
    }

    @Test("--access-log off writes no access lines; --log-format text writes no JSON")
    func logSwitches() throws {
        let server = try RoutemapProcess(arguments: ["--access-log", "off", "--log-format", "text"])
        _ = try server.client().request("GET", "/v1/menu/items")
        #expect(server.stop() == 0)
        let output = server.outputText
        server.cleanUp()
        #expect(!output.contains("/v1/menu/items"), "\(output)")
        #expect(!output.split(separator: "\n").contains { $0.hasPrefix("{") })
        #expect(output.contains("routemap listening"))
    }

    // MARK: Settings

    @Test("the README's settings table is exactly `routemap settings`, and serve --help names every flag and variable")
    func settingsTable() throws {
        let table = try runRoutemap(["settings"])
        #expect(table.status == 0)
        let readme = try String(contentsOf: RoutemapProcess.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let rows = table.output.split(separator: "\n").map(String.init)
        #expect(rows.count > 10)
        #expect(readme.contains(rows.joined(separator: "\n")), "README.md's settings table differs from `routemap settings`:\n\(table.output)")
        let help = try runRoutemap(["serve", "--help"])
        let flat = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for row in rows.dropFirst(2) {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
            #expect(flat.contains(cells[0] + " <"), "serve --help lacks \(cells[0])")
            #expect(flat.contains("Env: \(cells[1])"), "serve --help lacks \(cells[1])")
        }
    }

    @Test("an IPv6 address is written in brackets in the URL it serves at, and the health check probes it", .enabled(if: ipv6LoopbackWorks()))
    func ipv6URL() throws {
        let server = try RoutemapProcess(arguments: ["--host", "::1"])
        defer { server.cleanUp() }
        #expect(server.outputText.contains("routemap listening on http://[::1]:\(server.port)\n"), "\(server.outputText.prefix(400))")
        // The health check reaches it: by flag, in brackets or not, and by the server's own
        // ROUTEMAP_HOST (`::` is probed at ::1), as a container's HEALTHCHECK runs it.
        let port = String(server.port)
        for (arguments, environment) in [
            (["--host", "::1", "--port", port], [:]), (["--host", "[::1]", "--port", port], [:]),
            ([], ["ROUTEMAP_HOST": "::1", "ROUTEMAP_PORT": port]), ([], ["ROUTEMAP_HOST": "::", "ROUTEMAP_PORT": port]),
        ] as [([String], [String: String])] {
            let probe = try runRoutemap(["healthcheck"] + arguments, environment: environment)
            #expect(probe.status == 0, "\(arguments) \(environment): \(probe.output)")
        }
        let notAnAddress = try runRoutemap(["healthcheck", "--host", "localhost", "--port", port])
        #expect(notAnAddress.status == 64, "\(notAnAddress.output)")
    }

    @Test("a bad value stops start-up with one line naming the setting and what it allows")
    func badValues() throws {
        for (arguments, environment, line) in [
            (["--threads", "0"], [:], "routemap: --threads must be 1 to 1024, not '0'"),
            // A negative number is the flag's value, not another flag.
            (["--port", "-1"], [:], "routemap: --port must be 0 to 65535 (0 picks a free port), not '-1'"),
            (["--tls-cert", "/nonexistent.pem", "--tls-key", "/nonexistent.pem"], [:], "routemap: --tls-cert: cannot read '/nonexistent.pem'"),
            (["--max-body-bytes", "0"], [:], "routemap: --max-body-bytes must be 1 to 1073741824, not '0'"),
            ([], ["ROUTEMAP_LOG_FORMAT": "xml"], "routemap: ROUTEMAP_LOG_FORMAT must be one of json, text, not 'xml'"),
            // A secret's refused value is not repeated.
            (["--metrics-token", "short"], [:], "routemap: --metrics-token must be 16 to 200 bytes"),
            ([], ["ROUTEMAP_ENROLLMENT_CODE": "short"], "routemap: ROUTEMAP_ENROLLMENT_CODE must be 8 to 200 bytes"),
            (["--host", "localhost"], [:], "routemap: --host must be a numeric IPv4 or IPv6 address, not 'localhost'"),
            (["--migrations", "/nonexistent"], [:], "routemap: --migrations must be an existing directory, not '/nonexistent'"),
            ([], ["ROUTEMAP_MIGRATIONS": "/nonexistent"], "routemap: ROUTEMAP_MIGRATIONS must be an existing directory, not '/nonexistent'"),
            (["--public", "/nonexistent"], [:], "routemap: --public must be an existing directory, not '/nonexistent'"),
            // The demo menu's items are priced in USD: a bill in euros could take none of them.
            (
                ["--currency", "EUR"], [:],
                "routemap: --currency (ROUTEMAP_CURRENCY) must be the menu's currency, USD (18 items on it are priced in it: espresso, americano, latte, …; retire them with `routemap menu retire` to change currency), not 'EUR'"
            ),
        ] as [([String], [String: String], String)] {
            // A refused start exits at once; one that wrongly starts is killed after 30 s, and fails here.
            let result = try runRoutemap(["serve", "--port", "0"] + arguments, environment: environment, timeout: 30)
            #expect(result.status == 64, "\(arguments) \(environment): exit \(result.status)")
            #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == line, "\(arguments) \(environment)")
        }
    }

    // MARK: Helpers

    /// `/metrics` of `server`, parsed.
    private func scrape(_ server: RoutemapProcess) throws -> Exposition {
        let response = try server.client(authorized: false).request("GET", "/metrics")
        #expect(response.status == 200)
        return Exposition(text: response.text)
    }
}

/// A Prometheus text exposition: `name{label="value",…} number` lines.
struct Exposition {
    let text: String

    /// The sample of `name` whose labels are exactly `labels`.
    func value(_ name: String, _ labels: [String: String]) -> Double? {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            let series = line[..<space]
            let (seriesName, seriesLabels) = Self.parse(series)
            if seriesName == name, seriesLabels == labels { return Double(line[line.index(after: space)...]) }
        }
        return nil
    }

    private static func parse(_ series: Substring) -> (String, [String: String]) {
        guard let brace = series.firstIndex(of: "{") else { return (String(series), [:]) }
        var labels: [String: String] = [:]
        let inner = series[series.index(after: brace)..<(series.lastIndex(of: "}") ?? series.endIndex)]
        for pair in inner.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())
        }
        return (String(series[..<brace]), labels)
    }
}

extension JSON {
    fileprivate var encodedText: String { String(decoding: encoded(), as: UTF8.self) }
}
