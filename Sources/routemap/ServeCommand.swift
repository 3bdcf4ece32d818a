import ArgumentParser
import Foundation
import Logging
import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapStorage

/// `routemap serve`: migrates the database, serves the API until SIGINT or SIGTERM, then stops
/// gracefully: no new connections, in-flight requests finish, the database is checkpointed and
/// closed, exit status 0.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the HTTP server (the default command).")

    @OptionGroup var store: StoreOptions
    @OptionGroup var webClient: WebClientOptions

    @Option(help: "Address to listen on (0.0.0.0 for all IPv4, :: for all). Env: ROUTEMAP_HOST. Default: 127.0.0.1")
    var host: String?

    @Option(help: "TCP port; 0 picks a free one. Env: ROUTEMAP_PORT. Default: 8080")
    var port: UInt16?

    @Option(help: "Worker threads. Env: ROUTEMAP_THREADS. Default: twice the number of cores")
    var threads: Int?

    @Option(help: "Sales tax in basis points (875 = 8.75%). Env: ROUTEMAP_TAX_RATE_BPS. Default: 875")
    var taxRateBps: Int?

    @Option(help: "ISO 4217 currency of new bills. Env: ROUTEMAP_CURRENCY. Default: USD")
    var currency: String?

    @Option(help: "Seconds an idle connection is kept. Env: ROUTEMAP_CONNECTION_TIMEOUT. Default: 30")
    var connectionTimeout: Int?

    @Option(help: "Largest request body in bytes. Env: ROUTEMAP_MAX_BODY_BYTES. Default: 65536")
    var maxBodyBytes: Int?

    @Option(
        help: """
            Seconds a client has to send a whole request (head and body); 0 turns it off. \
            Env: ROUTEMAP_REQUEST_TIMEOUT. Default: 20
            """)
    var requestTimeout: Int?

    @Option(help: "Most connections open at once. Env: ROUTEMAP_CONNECTION_LIMIT. Default: 4096")
    var connectionLimit: Int?

    @Option(
        help: """
            Most requests waiting at once for their answer (a commit, say); past it requests get 503 \
            with Retry-After. Env: ROUTEMAP_MAX_REQUESTS_IN_FLIGHT. Default: 1024
            """)
    var maxRequestsInFlight: Int?

    @Option(
        help: """
            Most connections open at once from one IP address; 0 means no limit. Raise it behind a \
            reverse proxy, where every client has the proxy's address. \
            Env: ROUTEMAP_PER_ADDRESS_CONNECTION_LIMIT. Default: 1024
            """)
    var perAddressConnectionLimit: Int?

    @Option(help: "trace, debug, info, notice, warning, error or critical. Env: ROUTEMAP_LOG_LEVEL. Default: info")
    var logLevel: String?

    @Option(
        help: """
            The code devices present to enroll (POST /v1/devices), at least 8 characters. \
            Env: ROUTEMAP_ENROLLMENT_CODE. Default: a random code, printed at start-up
            """)
    var enrollmentCode: String?

    @Option(help: "Requests per second per device token; 0 turns the limit off. Env: ROUTEMAP_RATE_LIMIT. Default: 100")
    var rateLimit: Double?

    func run() throws {
        let settings = try ServeSettings(self)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = settings.logLevel
            return handler
        }
        let logger = Logger(label: "routemap")

        // Block the stop signals before any thread starts, so every thread inherits the mask
        // and only `sigwait` below receives them.
        let stopSignals = SignalSet([SIGINT, SIGTERM])
        stopSignals.block()

        let webClient = try self.webClient.load()
        let database = try SQLiteStore(path: settings.databasePath, migrations: try store.loadMigrations())
        let till = Till(store: database, taxRate: settings.taxRate, currency: settings.currency)
        let access = API.Configuration(enrollmentCode: settings.enrollmentCode, rateLimit: settings.rateLimit)
        let api = try API(till: till, devices: DeviceDirectory(store: database), configuration: access, logger: logger, webClient: webClient)
        let server = HTTPServer(configuration: settings.http, responder: api.makeRouter(), logger: logger)
        try server.start()
        logger.info(
            "routemap listening",
            metadata: ["url": "http://\(settings.http.host):\(server.port)", "database": "\(settings.databasePath)"])
        // The line tests and scripts wait for, on stdout.
        print("routemap listening on http://\(settings.http.host):\(server.port)")
        if settings.enrollmentCodeGenerated {
            print("routemap enrollment code (set --enrollment-code to choose one): \(settings.enrollmentCode)")
        }
        fflush(nil)

        let signal = stopSignals.wait()
        logger.info("routemap stopping", metadata: ["signal": "\(signal)"])
        server.shutdown(gracePeriod: Duration.seconds(10))
        try database.close()
        logger.info("routemap stopped")
    }
}

/// `serve`'s options resolved against the environment and validated.
struct ServeSettings {
    var http = HTTPServerConfiguration()
    var databasePath: String
    var taxRate: TaxRate
    var currency: Currency
    var logLevel: Logger.Level
    var enrollmentCode: String
    var enrollmentCodeGenerated = false
    var rateLimit: Double

    init(_ command: ServeCommand) throws {
        databasePath = command.store.resolvedDatabasePath
        http.host = command.host ?? Environment.value("ROUTEMAP_HOST") ?? "127.0.0.1"
        http.port = try command.port ?? Environment.integer("ROUTEMAP_PORT", as: UInt16.self) ?? 8080
        // A handler that writes holds its thread until the commit: twice the cores keeps the CPU
        // busy meanwhile and lets concurrent writes share a commit (BENCHMARKS.md).
        http.threads =
            try Environment.integer(command.threads, "ROUTEMAP_THREADS", "threads", in: 1...256)
            ?? min(256, 2 * ProcessInfo.processInfo.activeProcessorCount)
        // The ranges are those `HTTPServer` accepts, checked here to fail before anything starts.
        if let seconds = try Environment.integer(
            command.connectionTimeout, "ROUTEMAP_CONNECTION_TIMEOUT", "connection timeout (seconds)", in: 1...86_400)
        {
            http.connectionTimeout = seconds
        }
        if let bytes = try Environment.integer(command.maxBodyBytes, "ROUTEMAP_MAX_BODY_BYTES", "max body bytes", in: 1...(1 << 30)) {
            http.maxBodyBytes = bytes
        }
        if let seconds = try Environment.integer(
            command.requestTimeout, "ROUTEMAP_REQUEST_TIMEOUT", "request timeout (seconds, 0 = off)", in: 0...86_400)
        {
            http.requestTimeout = seconds
        }
        if let limit = try Environment.integer(command.connectionLimit, "ROUTEMAP_CONNECTION_LIMIT", "connection limit", in: 1...1_000_000) {
            http.connectionLimit = limit
        }
        if let limit = try Environment.integer(
            command.maxRequestsInFlight, "ROUTEMAP_MAX_REQUESTS_IN_FLIGHT", "max requests in flight", in: 1...1_000_000)
        {
            http.requestsInFlightLimit = limit
        }
        // The connection limit is the operator's choice: make room for it in the open-file limit.
        http.raisesOpenFileLimit = true
        if let limit = try Environment.integer(
            command.perAddressConnectionLimit, "ROUTEMAP_PER_ADDRESS_CONNECTION_LIMIT", "per-address connection limit (0 = none)",
            in: 0...1_000_000)
        {
            http.perAddressConnectionLimit = limit
        }
        let basisPoints = try command.taxRateBps ?? Environment.integer("ROUTEMAP_TAX_RATE_BPS") ?? 875
        guard let taxRate = TaxRate(basisPoints: basisPoints) else {
            throw ValidationError("tax rate must be 0 to 10000 basis points, not \(basisPoints).")
        }
        self.taxRate = taxRate
        let code = command.currency ?? Environment.value("ROUTEMAP_CURRENCY") ?? "USD"
        guard let currency = Currency(rawValue: code) else {
            throw ValidationError("currency must be an ISO 4217 code such as USD, not '\(code)'.")
        }
        self.currency = currency
        let level = command.logLevel ?? Environment.value("ROUTEMAP_LOG_LEVEL") ?? "info"
        guard let logLevel = Logger.Level(rawValue: level) else {
            throw ValidationError("log level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        self.logLevel = logLevel
        if let code = command.enrollmentCode ?? Environment.value("ROUTEMAP_ENROLLMENT_CODE") {
            guard (8...200).contains(code.utf8.count) else { throw ValidationError("enrollment code must be 8 to 200 bytes long.") }
            enrollmentCode = code
        } else {
            enrollmentCode = Identifier.make(prefix: "", length: 16)
            enrollmentCodeGenerated = true
        }
        let rate = try command.rateLimit ?? Environment.double("ROUTEMAP_RATE_LIMIT") ?? 100
        guard rate >= 0, rate.isFinite else { throw ValidationError("rate limit must be 0 (off) or a positive number of requests per second.") }
        rateLimit = rate
    }
}
