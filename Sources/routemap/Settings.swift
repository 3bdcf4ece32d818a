import Logging
import RoutemapDomain
import RoutemapHTTP
import RoutemapPostgres

/// Every setting of `routemap serve` (and the store settings `migrate` shares), each declared
/// once. The HTTP server's ranges are its own (`HTTPServerConfiguration.Allowed`), not restated.
enum Settings {
    typealias Allowed = HTTPServerConfiguration.Allowed

    static let host = Setting<String>.text(
        "host", "ROUTEMAP_HOST", default: "127.0.0.1", allowed: "a numeric IPv4 or IPv6 address",
        "Address to listen on (`0.0.0.0` all IPv4, `::` all).", isAllowed: HTTPServerConfiguration.isBindable(host:))
    static let port = Setting<Int>.integer("port", "ROUTEMAP_PORT", default: 8080, in: 0...65_535, note: "0 picks a free port", "TCP port to listen on.")
    static let database = Setting<String>.text(
        "db", "ROUTEMAP_DB", default: "routemap.sqlite", allowed: "a file path", "SQLite database file; `serve` and `migrate` create it if missing and migrate it, the other commands need it to exist.",
        isAllowed: { !$0.isEmpty })
    static let databaseURL = Setting<DatabaseURL?>(
        flag: "database-url", environment: "ROUTEMAP_DATABASE_URL", defaultText: "none: SQLite at `--db`",
        allowed: "`postgres://user:password@host:port/database` (`?sslmode=verify-full` for TLS safe from a man in the middle)",
        summary: "PostgreSQL database to use instead of SQLite: any number of nodes may share it (see [Running several nodes](#running-several-nodes)).",
        defaultValue: { nil }, parse: { text in DatabaseURL(text).map { .some($0) } }, isSecret: true)
    static let databaseConnections = Setting<Int>.integer(
        "database-connections", "ROUTEMAP_DATABASE_CONNECTIONS", default: 8, in: 1...1000,
        "Connections to PostgreSQL this node's requests use at most (with `--database-url`), each running one transaction or read at a time; the node opens two more, for its bill cache's version checks and its health check: budget nodes × (this + 2) against `max_connections`.")
    static let databaseWait = Setting<Int>.integer(
        "database-wait", "ROUTEMAP_DATABASE_WAIT", default: 60, in: 0...86_400, note: "0 = one attempt",
        "Seconds `serve` and `migrate` keep trying to reach PostgreSQL at start-up (with `--database-url`), a log line per failed attempt, before they give up with exit status 75; SIGTERM or SIGINT stops the wait.")
    static let checkpointPages = Setting<Int>.integer(
        "checkpoint-pages", "ROUTEMAP_CHECKPOINT_PAGES", default: 10_000, in: 16...1_000_000,
        "SQLite: write-ahead log pages (4 KiB each) that start a checkpoint, run off the writer. More: fewer syncs and a larger log file.")
    static let migrations = Setting<String?>(
        flag: "migrations", environment: "ROUTEMAP_MIGRATIONS",
        defaultText: "`<binary>/../share/routemap/Migrations` if present, else `./Migrations`", allowed: "an existing directory",
        summary: "Directory of `NNNN_name.sql` migrations.", defaultValue: { nil }, parse: optionalText(allowing: InstalledDirectory.exists))
    static let publicDirectory = Setting<String?>(
        flag: "public", environment: "ROUTEMAP_PUBLIC",
        defaultText: "`<binary>/../share/routemap/Public` if present, else `./Public`", allowed: "an existing directory",
        summary: "The [web client](#web-client)'s files, read once at start-up (a missing one stops it).", defaultValue: { nil },
        parse: optionalText(allowing: InstalledDirectory.exists))
    static let threads = Setting<Int>.integer(
        "threads", "ROUTEMAP_THREADS", default: HTTPServerConfiguration.defaultThreads, defaultText: "2 × cores", in: Allowed.threads,
        "HTTP worker threads: they read requests and run immediate handlers (a write waits for its commit without one).")
    static let taxRate = Setting<TaxRate>(
        flag: "tax-rate-bps", environment: "ROUTEMAP_TAX_RATE_BPS", defaultText: "`875`", allowed: "0 to 10000",
        summary: "Sales tax of new bills in basis points (875 = 8.75%).", defaultValue: { TaxRate(basisPoints: 875)! },
        parse: { Int($0).flatMap(TaxRate.init(basisPoints:)) })
    static let tillDiscountLimit = Setting<Int>.integer(
        "till-discount-limit-bps", "ROUTEMAP_TILL_DISCOUNT_LIMIT_BPS", default: 0, in: 0...TaxRate.maximumBasisPoints,
        note: "0 = only a manager discounts",
        "Largest discount a till may give a bill it holds, in basis points of the bill's subtotal (1000 = 10%; an amount counts as its share of the subtotal when given); a manager device gives any.")
    static let suggestedTips = Setting<[Int]>(
        flag: "suggested-tips", environment: "ROUTEMAP_SUGGESTED_TIPS", defaultText: "`10,15,20`",
        allowed: "`none`, or 1 to \(Bill.maxSuggestedTips) distinct whole percentages from 1 to 100, comma-separated",
        summary: "The tips the order summary offers (`suggestedTips`), as percentages of what the bill has due, in this order; `none` offers none.",
        defaultValue: { Bill.suggestedTipPercents }, parse: Bill.suggestedTipPercents(from:))
    static let currency = Setting<Currency>(
        flag: "currency", environment: "ROUTEMAP_CURRENCY", defaultText: "`USD`", allowed: "an ISO 4217 code such as USD",
        summary: "Currency of new bills; every item on the menu must be priced in it (start-up stops otherwise).", defaultValue: { Currency(rawValue: "USD")! }, parse: Currency.init(rawValue:))
    static let shopName = shopDetail(
        "shop-name", "ROUTEMAP_SHOP_NAME", "The shop's name, at the top of every receipt (`GET /v1/bills/{billId}/receipt`).")
    static let shopAddress = shopDetail(
        "shop-address", "ROUTEMAP_SHOP_ADDRESS", "The shop's address on one line, printed on every receipt.")
    static let shopTaxId = shopDetail(
        "shop-tax-id", "ROUTEMAP_SHOP_TAX_ID", "The shop's tax (VAT, GST, sales tax) registration number, printed on every receipt.")
    static let connectionTimeout = Setting<Int>.integer(
        "connection-timeout", "ROUTEMAP_CONNECTION_TIMEOUT", default: 30, in: Allowed.connectionTimeout, note: "0 = never",
        "Seconds before an idle connection closes.")
    static let maxBodyBytes = Setting<Int>.integer(
        "max-body-bytes", "ROUTEMAP_MAX_BODY_BYTES", default: 65_536, in: Allowed.maxBodyBytes, "Largest request body; larger ones get 413.")
    static let requestTimeout = Setting<Int>.integer(
        "request-timeout", "ROUTEMAP_REQUEST_TIMEOUT", default: 20, in: Allowed.requestTimeout, note: "0 = off",
        "Seconds a client has to send a whole request, and a handler to answer it: slower clients are closed, slower handlers answered 503 `timed_out`.")
    static let maxRequestsInFlight = Setting<Int>.integer(
        "max-requests-in-flight", "ROUTEMAP_MAX_REQUESTS_IN_FLIGHT", default: 1024, in: Allowed.requestsInFlightLimit,
        "Handlers waiting at once (for a commit, say); past it: 503 `overloaded` with `Retry-After`.")
    static let connectionLimit = Setting<Int>.integer(
        "connection-limit", "ROUTEMAP_CONNECTION_LIMIT", default: 4096, in: Allowed.connectionLimit,
        "Connections open at once (lowered, with a warning, if the open-file limit can't fit it).")
    static let perAddressConnectionLimit = Setting<Int>.integer(
        "per-address-connection-limit", "ROUTEMAP_PER_ADDRESS_CONNECTION_LIMIT", default: 1024, in: Allowed.perAddressConnectionLimit,
        note: "0 = no limit", "Connections from one IP address; a `--trusted-proxy` is exempt (limit clients' connections at the proxy).")
    static let logLevel = Setting<Logger.Level>.choice(
        "log-level", "ROUTEMAP_LOG_LEVEL", default: .info, "Least severe log level written (to stderr).")
    static let logFormat = Setting<LogFormat>.choice(
        "log-format", "ROUTEMAP_LOG_FORMAT", default: .json, "Log lines as JSON objects (for a log pipeline) or as text (for a terminal).")
    static let accessLog = Setting<Switch>.choice(
        "access-log", "ROUTEMAP_ACCESS_LOG", default: .off,
        "One log line per answered request, at `info` (off by default: it cost a third of read throughput, see the README's Logs).")
    static let enrollmentCode = Setting<String?>(
        flag: "enrollment-code", environment: "ROUTEMAP_ENROLLMENT_CODE", defaultText: "random, printed on start", allowed: "8 to 200 bytes",
        summary: "Code a till presents to enroll (`POST /v1/devices`).", defaultValue: { nil },
        parse: optionalText(allowing: { (8...200).contains($0.utf8.count) }), isSecret: true)
    static let managerEnrollmentCode = Setting<String?>(
        flag: "manager-enrollment-code", environment: "ROUTEMAP_MANAGER_ENROLLMENT_CODE",
        defaultText: "none: managers enroll only with `routemap devices enroll`", allowed: "8 to 200 bytes, not the till code",
        summary: "Code a manager's device presents to enroll (`POST /v1/devices` with `\"role\": \"manager\"`).", defaultValue: { nil },
        parse: optionalText(allowing: { (8...200).contains($0.utf8.count) }), isSecret: true)
    static let trustedProxy = Setting<TrustedProxies>(
        flag: "trusted-proxy", environment: "ROUTEMAP_TRUSTED_PROXY", defaultText: "none", allowed: "IP addresses or CIDR blocks, comma-separated",
        summary: "Reverse proxies whose `X-Forwarded-For` names the client for the per-address limits (the flag may repeat).",
        defaultValue: { TrustedProxies() }, parse: { TrustedProxies(list: $0) })
    static let tlsCertificate = Setting<String?>(
        flag: "tls-cert", environment: "ROUTEMAP_TLS_CERT", defaultText: "none: plain HTTP", allowed: "a PEM file (with `--tls-key`)",
        summary: "Serve HTTPS with this certificate chain (libmicrohttpd's TLS, GnuTLS).", defaultValue: { nil },
        parse: optionalText(allowing: { !$0.isEmpty }))
    static let tlsKey = Setting<String?>(
        flag: "tls-key", environment: "ROUTEMAP_TLS_KEY", defaultText: "none", allowed: "a PEM file (with `--tls-cert`)",
        summary: "The private key of `--tls-cert`.", defaultValue: { nil }, parse: optionalText(allowing: { !$0.isEmpty }))
    static let rateLimit = Setting<Double>(
        flag: "rate-limit", environment: "ROUTEMAP_RATE_LIMIT", defaultText: "`100`", allowed: "0 (off) or more",
        summary: "Requests per second per device token; over it: 429.", defaultValue: { 100 },
        parse: { Double($0).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil } })
    static let metricsToken = Setting<String?>(
        flag: "metrics-token", environment: "ROUTEMAP_METRICS_TOKEN", defaultText: "none: `/metrics` is open", allowed: "16 to 200 bytes",
        summary: "Bearer token `GET /metrics` requires.", defaultValue: { nil },
        parse: optionalText(allowing: { (16...200).contains($0.utf8.count) }), isSecret: true)

    /// One of the shop's details on its receipts: optional, and when set, ``ShopDetails``' rule.
    private static func shopDetail(_ flag: String, _ environment: String, _ summary: String) -> Setting<String?> {
        Setting(
            flag: flag, environment: environment, defaultText: "none: left off receipts", allowed: ShopDetails.rule, summary: summary,
            defaultValue: { nil }, parse: optionalText(allowing: ShopDetails.isValid))
    }

    /// The parser of an optional text setting: a text `isAllowed` accepts, else refused. (Written
    /// out because `cond ? text : nil` would make a refusal an accepted `nil`.)
    private static func optionalText(allowing isAllowed: @escaping @Sendable (String) -> Bool) -> @Sendable (String) -> String?? {
        { text in isAllowed(text) ? .some(.some(text)) : .none }
    }

    /// Every setting, in the order of the README's table.
    static let all: [any SettingDescription] = [
        host, port, database, databaseURL, databaseConnections, databaseWait, checkpointPages, migrations, publicDirectory, threads, taxRate, tillDiscountLimit, suggestedTips, currency, shopName, shopAddress, shopTaxId,
        connectionTimeout, maxBodyBytes, requestTimeout,
        maxRequestsInFlight, connectionLimit, perAddressConnectionLimit, trustedProxy, tlsCertificate, tlsKey, logLevel, logFormat,
        accessLog, enrollmentCode, managerEnrollmentCode, rateLimit, metricsToken,
    ]

    /// The README's settings table.
    static var markdownTable: String {
        (["| flag | environment | default | allowed | what it sets |", "|---|---|---|---|---|"] + all.map(\.markdownRow))
            .joined(separator: "\n")
    }
}

/// How log lines are written.
enum LogFormat: String, CaseIterable, Sendable {
    case json, text
}

/// A feature turned on or off.
enum Switch: String, CaseIterable, Sendable {
    case on, off
}


