import ArgumentParser
import CoreMetrics
import Foundation
import Logging
import Prometheus
import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapPostgres
import RoutemapStorage
import ServiceLifecycle

/// `routemap serve`: migrates the database, serves the API until SIGINT or SIGTERM, then stops
/// gracefully: no new connections, in-flight requests finish, the database is checkpointed and
/// closed, exit status 0.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the HTTP server (the default command).")

    @OptionGroup var store: StoreOptions
    @OptionGroup var webClient: WebClientOptions

    // Each option is declared in `Settings` (flag, environment variable, default, allowed
    // values, help); here it is only read, as text, and resolved by `ServeSettings`. Each takes
    // the next argument whatever it looks like, so `--port -1` is refused by the setting, in one
    // line, not taken for an unknown flag.
    @Option(name: Settings.host.name, parsing: .unconditional, help: Settings.host.help) var host: String?
    @Option(name: Settings.port.name, parsing: .unconditional, help: Settings.port.help) var port: String?
    @Option(name: Settings.threads.name, parsing: .unconditional, help: Settings.threads.help) var threads: String?
    @Option(name: Settings.databaseConnections.name, parsing: .unconditional, help: Settings.databaseConnections.help) var databaseConnections: String?
    @Option(name: Settings.databaseWait.name, parsing: .unconditional, help: Settings.databaseWait.help) var databaseWait: String?
    @Option(name: Settings.checkpointPages.name, parsing: .unconditional, help: Settings.checkpointPages.help) var checkpointPages: String?
    @Option(name: Settings.taxRate.name, parsing: .unconditional, help: Settings.taxRate.help) var taxRateBps: String?
    @Option(name: Settings.tillDiscountLimit.name, parsing: .unconditional, help: Settings.tillDiscountLimit.help) var tillDiscountLimitBps: String?
    @Option(name: Settings.suggestedTips.name, parsing: .unconditional, help: Settings.suggestedTips.help) var suggestedTips: String?
    @Option(name: Settings.currency.name, parsing: .unconditional, help: Settings.currency.help) var currency: String?
    @Option(name: Settings.shopName.name, parsing: .unconditional, help: Settings.shopName.help) var shopName: String?
    @Option(name: Settings.shopAddress.name, parsing: .unconditional, help: Settings.shopAddress.help) var shopAddress: String?
    @Option(name: Settings.shopTaxId.name, parsing: .unconditional, help: Settings.shopTaxId.help) var shopTaxId: String?
    @Option(name: Settings.connectionTimeout.name, parsing: .unconditional, help: Settings.connectionTimeout.help) var connectionTimeout: String?
    @Option(name: Settings.maxBodyBytes.name, parsing: .unconditional, help: Settings.maxBodyBytes.help) var maxBodyBytes: String?
    @Option(name: Settings.requestTimeout.name, parsing: .unconditional, help: Settings.requestTimeout.help) var requestTimeout: String?
    @Option(name: Settings.maxRequestsInFlight.name, parsing: .unconditional, help: Settings.maxRequestsInFlight.help) var maxRequestsInFlight: String?
    @Option(name: Settings.connectionLimit.name, parsing: .unconditional, help: Settings.connectionLimit.help) var connectionLimit: String?
    @Option(name: Settings.perAddressConnectionLimit.name, parsing: .unconditional, help: Settings.perAddressConnectionLimit.help)
    var perAddressConnectionLimit: String?
    @Option(name: Settings.logLevel.name, parsing: .unconditional, help: Settings.logLevel.help) var logLevel: String?
    @Option(name: Settings.logFormat.name, parsing: .unconditional, help: Settings.logFormat.help) var logFormat: String?
    @Option(name: Settings.accessLog.name, parsing: .unconditional, help: Settings.accessLog.help) var accessLog: String?
    @Option(name: Settings.enrollmentCode.name, parsing: .unconditional, help: Settings.enrollmentCode.help) var enrollmentCode: String?
    @Option(name: Settings.managerEnrollmentCode.name, parsing: .unconditional, help: Settings.managerEnrollmentCode.help) var managerEnrollmentCode: String?
    @Option(name: Settings.trustedProxy.name, parsing: .unconditionalSingleValue, help: Settings.trustedProxy.help) var trustedProxy: [String] = []
    @Option(name: Settings.tlsCertificate.name, parsing: .unconditional, help: Settings.tlsCertificate.help) var tlsCertificate: String?
    @Option(name: Settings.tlsKey.name, parsing: .unconditional, help: Settings.tlsKey.help) var tlsKey: String?
    @Option(name: Settings.rateLimit.name, parsing: .unconditional, help: Settings.rateLimit.help) var rateLimit: String?
    @Option(name: Settings.metricsToken.name, parsing: .unconditional, help: Settings.metricsToken.help) var metricsToken: String?

    /// How long a stop waits for requests in flight (then answers those still running 503):
    /// short enough that the checkpoint and close after it end within the 10 s a container
    /// runtime waits after SIGTERM before it kills the process (`docker stop`'s default).
    static let gracePeriod = Duration.seconds(7)

    /// Throws unless every item on the menu is priced in `currency`: a bill takes items in its
    /// till's currency only, so any other item would be listed and refused on every add.
    static func checkMenuCurrency(of till: Till, _ currency: Currency) throws {
        let others = try till.menu().filter { $0.currency != currency }
        guard let first = others.first else { return }
        let names = others.prefix(3).map(\.id).joined(separator: ", ") + (others.count > 3 ? ", …" : "")
        throw SettingError(
            source: "--currency (ROUTEMAP_CURRENCY)",
            allowed: "the menu's currency, \(first.currency.rawValue) (\(others.count) items on it are priced in it: \(names); retire them with `routemap menu retire` to change currency)",
            given: currency.rawValue)
    }

    func run() async throws {
        let settings: ServeSettings
        do {
            settings = try ServeSettings(self)
        } catch let error as SettingError {
            // One line naming the setting and what it allows; nothing has started.
            throw refusal(error, exitStatus: ExitCode.validationFailure.rawValue)
        } catch let error as TLSFileError {
            throw refusal(error, exitStatus: ExitCode.validationFailure.rawValue)
        } catch let refused as ExitCode {
            throw refused  // Said already (`refusal`).
        } catch {
            throw refusal("\(error)", exitStatus: ExitCode.failure.rawValue)
        }
        Self.bootstrapLogging(settings)
        let logger = Logger(label: "routemap")
        let registry = PrometheusCollectorRegistry()
        Self.bootstrapMetrics(registry)

        // Block the stop signals before any thread starts, so every thread inherits the mask
        // and only the service group's signal source receives them.
        SignalSet([SIGINT, SIGTERM]).block()
        MallocTuning.apply()

        let webClient = try self.webClient.load()
        let createdFile = try store.resolvedDatabaseURL() == nil && ServerFileLock.take(store.resolvedDatabasePath)
        let database: OpenedStore
        do {
            // Signals are blocked (above): the wait takes a stop from the pending ones.
            database = try store.open(
                connections: settings.databaseConnections, checkpointPages: settings.checkpointPages, logger: Logger(label: "routemap.postgres"),
                wait: { url in .stoppable(limit: .seconds(settings.databaseWait), location: url.description, logger: logger) })
        } catch let stopped as StoppedWhileWaiting {
            logger.info("routemap stopped", metadata: ["why": "\(stopped)"])
            throw refusal(stopped, exitStatus: 0)
        } catch {
            if createdFile { ServerFileLock.removeIfEmpty(store.resolvedDatabasePath) }
            throw error
        }
        let till = Till(
            store: database.store, taxRate: settings.taxRate, currency: settings.currency, shop: settings.shop,
            tillDiscountLimitBasisPoints: settings.tillDiscountLimit, suggestedTipPercents: settings.suggestedTipPercents)
        do {
            try Self.checkMenuCurrency(of: till, settings.currency)
        } catch {
            try? database.close()
            throw error  // A `SettingError`: refused in one line by `RoutemapCommand.main`.
        }
        let sampler = MetricsSampler(registry: registry, store: database, logger: logger)
        let metrics = MetricsEndpoint(token: settings.metricsToken) { [sampler] in
            await sampler.sample()
            return registry.emitToBuffer()
        }
        let access = API.Configuration(
            enrollmentCode: settings.enrollmentCode, managerEnrollmentCode: settings.managerEnrollmentCode, rateLimit: settings.rateLimit,
            metrics: metrics, trustedProxies: settings.http.trustedProxies)
        let resources = AppResources(database: database, till: till)
        let api: API
        let apps: [any App]
        do {
            apps = try Apps.all.map { try $0.make(resources) }
            api = try API(devices: DeviceDirectory(store: database.store), apps: apps, configuration: access, logger: logger, webClient: webClient)
        } catch {
            // Nothing serves yet: close what is open (SQLite's last checkpoint, PostgreSQL's
            // connections and threads) before the process exits.
            try? database.close()
            throw error
        }
        let telemetry = RequestTelemetry(registry: registry, accessLog: settings.accessLog ? Logger(label: "routemap.access") : nil)
        let server = HTTPServer(configuration: settings.http, responder: api.makeRouter(), logger: logger, observer: telemetry)
        sampler.watch(server)

        let http = HTTPService(server: server, gracePeriod: Self.gracePeriod, logger: logger) { server in
            logger.info(
                "routemap listening",
                metadata: [
                    "url": "\(settings.url(port: server.port))", "database": "\(database.location)",
                    "threads": "\(settings.http.threads)", "logFormat": "\(settings.logFormat.rawValue)",
                    "accessLog": "\(settings.accessLog)", "metrics": "\(settings.metricsToken == nil ? "open" : "token")",
                ])
            // The line tests and scripts wait for, on stdout.
            print("routemap listening on \(settings.url(port: server.port))")
            if settings.enrollmentCodeGenerated {
                // On stdout only, once: never in the log.
                print("routemap enrollment code (set --enrollment-code to choose one): \(settings.enrollmentCode)")
            }
            fflush(nil)
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: StoreService(store: database)),
                    .init(service: KeySweeper(till: till, logger: logger)),
                    .init(service: sampler),
                ]
                    // An app with no work of its own returns at once; that ends nothing.
                    + apps.map { .init(service: AppBackgroundWork(app: $0), successTerminationBehavior: .ignore) }
                    // Shut down in reverse: the HTTP server, then the interruption of what
                    // still waits on the database, then the rest.
                    + [.init(service: StoreInterruption(store: database)), .init(service: http)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
        try await group.run()
        logger.info("routemap stopped")
    }

    static func bootstrapLogging(_ settings: ServeSettings) {
        let level = settings.logLevel
        switch settings.logFormat {
        case .json:
            LoggingSystem.bootstrap { label in
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        case .text:
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
        }
    }

    /// swift-metrics' backend: the Prometheus registry `/metrics` renders.
    static func bootstrapMetrics(_ registry: PrometheusCollectorRegistry) {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.valueHistogramBuckets["routemap_group_commit_batch_size"] = [1, 2, 4, 8, 16, 32, 64, 128, 256]
        MetricsSystem.bootstrap(factory)
    }
}

/// `serve`'s settings resolved (flag, else environment, else default) and checked, each
/// against its declaration in `Settings`.
struct ServeSettings: Sendable {
    var http = HTTPServerConfiguration()
    var databaseConnections: Int
    /// Seconds to keep trying to reach PostgreSQL at start-up.
    var databaseWait: Int
    var checkpointPages: Int
    var taxRate: TaxRate
    /// The largest discount a till may give, in basis points of a bill's subtotal.
    var tillDiscountLimit: Int
    /// The tips the order summary offers, as percentages of what is due.
    var suggestedTipPercents: [Int]
    var currency: Currency
    /// What every receipt says of the shop.
    var shop: ShopDetails
    var logLevel: Logger.Level
    var logFormat: LogFormat
    var accessLog: Bool
    var enrollmentCode: String
    var enrollmentCodeGenerated = false
    var managerEnrollmentCode: String?
    var rateLimit: Double
    var metricsToken: String?

    /// `https` with `--tls-cert`, else `http`.
    var scheme: String { http.tls == nil ? "http" : "https" }

    /// The address served at, as a URL: an IPv6 host in brackets (`http://[::1]:8080`).
    func url(port: Int) -> String {
        "\(scheme)://\(http.host.contains(":") ? "[\(http.host)]" : http.host):\(port)"
    }

    init(_ command: ServeCommand) throws {
        // Checked here with every other setting; `store.open` resolves them again when it opens.
        _ = try Settings.database.resolve(command.store.databasePath)
        _ = try command.store.resolvedDatabaseURL()
        _ = try command.store.resolvedMigrationsDirectory()
        _ = try Settings.publicDirectory.resolve(command.webClient.publicDirectory)
        databaseConnections = try Settings.databaseConnections.resolve(command.databaseConnections)
        databaseWait = try Settings.databaseWait.resolve(command.databaseWait)
        checkpointPages = try Settings.checkpointPages.resolve(command.checkpointPages)
        http.host = try Settings.host.resolve(command.host)
        http.port = UInt16(try Settings.port.resolve(command.port))
        http.threads = try Settings.threads.resolve(command.threads)
        http.connectionTimeout = try Settings.connectionTimeout.resolve(command.connectionTimeout)
        http.maxBodyBytes = try Settings.maxBodyBytes.resolve(command.maxBodyBytes)
        http.requestTimeout = try Settings.requestTimeout.resolve(command.requestTimeout)
        http.connectionLimit = try Settings.connectionLimit.resolve(command.connectionLimit)
        http.requestsInFlightLimit = try Settings.maxRequestsInFlight.resolve(command.maxRequestsInFlight)
        http.perAddressConnectionLimit = try Settings.perAddressConnectionLimit.resolve(command.perAddressConnectionLimit)
        // The connection limit is the operator's choice: make room for it in the open-file limit.
        http.raisesOpenFileLimit = true
        taxRate = try Settings.taxRate.resolve(command.taxRateBps)
        tillDiscountLimit = try Settings.tillDiscountLimit.resolve(command.tillDiscountLimitBps)
        suggestedTipPercents = try Settings.suggestedTips.resolve(command.suggestedTips)
        currency = try Settings.currency.resolve(command.currency)
        // Each detail was checked by its setting, by the rule `ShopDetails` checks again.
        shop = try ShopDetails(
            name: try Settings.shopName.resolve(command.shopName), address: try Settings.shopAddress.resolve(command.shopAddress),
            taxId: try Settings.shopTaxId.resolve(command.shopTaxId))
        logLevel = try Settings.logLevel.resolve(command.logLevel)
        logFormat = try Settings.logFormat.resolve(command.logFormat)
        accessLog = try Settings.accessLog.resolve(command.accessLog) == .on
        if let code = try Settings.enrollmentCode.resolve(command.enrollmentCode) {
            enrollmentCode = code
        } else {
            enrollmentCode = Identifier.make(prefix: "", length: 16)
            enrollmentCodeGenerated = true
        }
        managerEnrollmentCode = try Settings.managerEnrollmentCode.resolve(command.managerEnrollmentCode)
        if let managerEnrollmentCode, managerEnrollmentCode == enrollmentCode {
            throw SettingError(source: "--manager-enrollment-code", allowed: "8 to 200 bytes, not the till code", given: nil)
        }
        http.trustedProxies = try Settings.trustedProxy.resolve(
            command.trustedProxy.isEmpty ? nil : command.trustedProxy.joined(separator: ","))
        http.tls = try TLSFiles.load(
            certificate: try Settings.tlsCertificate.resolve(command.tlsCertificate), key: try Settings.tlsKey.resolve(command.tlsKey))
        rateLimit = try Settings.rateLimit.resolve(command.rateLimit)
        metricsToken = try Settings.metricsToken.resolve(command.metricsToken)
    }
}
