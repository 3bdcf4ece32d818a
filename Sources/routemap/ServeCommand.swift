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

        let database = try SQLiteStore(path: settings.databasePath, migrations: try store.loadMigrations())
        let till = Till(store: database, taxRate: settings.taxRate, currency: settings.currency)
        let access = API.Configuration(enrollmentCode: settings.enrollmentCode, rateLimit: settings.rateLimit)
        let api = try API(till: till, devices: DeviceDirectory(store: database), configuration: access, logger: logger)
        let server = HTTPServer(configuration: settings.http, router: api.makeRouter(), logger: logger)
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
        if let threads = try command.threads ?? Environment.integer("ROUTEMAP_THREADS") {
            guard (1...256).contains(threads) else { throw ValidationError("threads must be 1 to 256.") }
            http.threads = threads
        } else {
            // A handler that writes holds its thread until the commit: twice the cores keeps the
            // CPU busy meanwhile and lets concurrent writes share a commit (BENCHMARKS.md).
            http.threads = min(256, 2 * ProcessInfo.processInfo.activeProcessorCount)
        }
        if let timeout = try command.connectionTimeout ?? Environment.integer("ROUTEMAP_CONNECTION_TIMEOUT") {
            guard timeout >= 1 else { throw ValidationError("connection timeout must be at least 1 second.") }
            http.connectionTimeout = timeout
        }
        if let limit = try command.maxBodyBytes ?? Environment.integer("ROUTEMAP_MAX_BODY_BYTES") {
            guard limit >= 1 else { throw ValidationError("max body bytes must be at least 1.") }
            http.maxBodyBytes = limit
        }
        if let timeout = try command.requestTimeout ?? Environment.integer("ROUTEMAP_REQUEST_TIMEOUT") {
            guard (0...86_400).contains(timeout) else { throw ValidationError("request timeout must be 0 to 86400 seconds.") }
            http.requestTimeout = timeout
        }
        if let limit = try command.connectionLimit ?? Environment.integer("ROUTEMAP_CONNECTION_LIMIT") {
            guard (1...1_000_000).contains(limit) else { throw ValidationError("connection limit must be 1 to 1000000.") }
            http.connectionLimit = limit
        }
        if let limit = try command.perAddressConnectionLimit ?? Environment.integer("ROUTEMAP_PER_ADDRESS_CONNECTION_LIMIT") {
            guard (0...1_000_000).contains(limit) else {
                throw ValidationError("per-address connection limit must be 0 (no limit) to 1000000.")
            }
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
