import Logging
import RoutemapDomain
import RoutemapHTTP
import RoutemapNavigation

/// routemap's HTTP API: the `/v1` point-of-sale endpoints, each answering with data and the
/// navigation steps the client performs, plus `/healthz` and the web client at `/`.
public struct API: Sendable {
    /// What the operator decides about access.
    public struct Configuration: Sendable {
        /// The code a till presents to enroll (`POST /v1/devices`).
        public var enrollmentCode: String
        /// The code a manager's device presents to enroll; `nil`: managers are enrolled only
        /// with `routemap devices enroll` on the server's machine.
        public var managerEnrollmentCode: String?
        /// Reverse proxies whose `X-Forwarded-For` names the client, for the per-address limits.
        public var trustedProxies: TrustedProxies = TrustedProxies()
        /// Requests per second each device token may make (bursts up to one second's worth);
        /// 0 turns the limit off.
        public var rateLimit: Double
        /// `GET /metrics`, when the program serves metrics.
        public var metrics: MetricsEndpoint?

        public init(
            enrollmentCode: String, managerEnrollmentCode: String? = nil, rateLimit: Double = 100, metrics: MetricsEndpoint? = nil,
            trustedProxies: TrustedProxies = TrustedProxies()
        ) {
            self.enrollmentCode = enrollmentCode
            self.managerEnrollmentCode = managerEnrollmentCode
            self.trustedProxies = trustedProxies
            self.rateLimit = rateLimit
            self.metrics = metrics
        }
    }

    let till: Till
    let devices: DeviceDirectory
    let configuration: Configuration
    let menu: LiveMenu
    let navigator: Navigator<ScreenContext>
    let idempotency = Idempotency()
    let logger: Logger
    let webClient: StaticFiles
    let authenticator: DeviceAuthenticator

    /// Reads the menu (kept current by `LiveMenu`) and checks the route
    /// registry; throws `RegistryProblems` when it is broken. `webClient` is served at `/`.
    public init(
        till: Till, devices: DeviceDirectory, configuration: Configuration, logger: Logger, webClient: StaticFiles = .none
    ) throws {
        let problems = POSRegistry.problems
        guard problems.isEmpty else { throw RegistryProblems(problems: problems) }
        self.till = till
        self.devices = devices
        self.configuration = configuration
        self.menu = try LiveMenu(till: till)
        self.navigator = POSNavigation.makeNavigator()
        self.logger = logger
        self.webClient = webClient
        self.authenticator = DeviceAuthenticator(directory: devices)
    }

    /// A router with every endpoint, each registered with its access: device routes behind
    /// the bearer token and the per-device rate limit.
    public func makeRouter() -> some HTTPResponder {
        APIMetrics.register()
        var router = Router<APIContext>(defaultAccess: .device, admit: makeAdmission())
        router.acceptsBody = MediaType.isJSON
        router.problemTypeNamespace = Problem.routemapNamespace
        router.logger = logger
        DevicesController(
            directory: devices, enrollmentCodes: configuration.enrollmentCodes, trustedProxies: configuration.trustedProxies
        ).register(on: &router)
        DeviceManagementController(directory: devices, authenticator: authenticator).register(on: &router)
        MenuController(menu: menu).register(on: &router)
        MenuManagementController(api: self).register(on: &router)
        BillsController(api: self).register(on: &router)
        LaunchController(api: self).register(on: &router)
        RoutesController(registry: navigator.registry).register(on: &router)
        NavigateController(api: self).register(on: &router)
        HealthController(till: till).register(on: &router)
        StaticFilesController(files: webClient).register(on: &router)
        if let metrics = configuration.metrics { MetricsController(endpoint: metrics).register(on: &router) }
        return APIResponder(router: router)
    }

    /// Admission: open routes admit anyone; device routes need a valid token, then a token
    /// within its rate limit (401 before 429); manager routes then need the manager role (403).
    private func makeAdmission() -> Router<APIContext>.Admission {
        let authenticator = self.authenticator
        let limiter = configuration.rateLimit > 0 ? RateLimiter(rate: configuration.rateLimit, burst: configuration.rateLimit) : nil
        return { request, access in
            if case .open = access { return APIContext(device: nil) }
            let device = try authenticator.authenticate(request)
            if let limiter, let wait = limiter.spend(device.id) {
                APIMetrics.rateLimited.increment()
                throw Problem.tooManyRequests("This device is over its limit of requests per second.", retryAfter: wait)
            }
            if case .manager = access, device.role != .manager { throw Problem.managerOnly }
            return APIContext(device: device)
        }
    }

    /// The payload builders' context for one request of `device`, holding the bills it already loaded.
    func screenContext(_ device: AuthenticatedDevice, _ bills: Bill...) -> ScreenContext {
        ScreenContext(bills: till.reader(for: device.id), menu: menu.current, known: bills)
    }

    /// ``screenContext(_:_:)`` with the menu version the caller already read.
    func screenContext(_ device: AuthenticatedDevice, menu: MenuCatalog, _ bills: Bill...) -> ScreenContext {
        ScreenContext(bills: till.reader(for: device.id), menu: menu, known: bills)
    }
}

extension POSError: ProblemConvertible {}
extension NavigationError: ProblemConvertible {}
