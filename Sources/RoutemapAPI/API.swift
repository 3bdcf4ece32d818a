import Logging
import RoutemapDomain
import RoutemapHTTP
import RoutemapNavigation

/// routemap's HTTP API: the engine every app shares (devices and their tokens, admission, rate
/// limits, `/healthz`, `/metrics`, the web client at `/`) and the apps it serves, each with its
/// navigation endpoints (`/v1/apps/{name}/…`) and its own.
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

    let devices: DeviceDirectory
    let configuration: Configuration
    /// The apps served, in the order listed; the first also answers the navigation endpoints
    /// without an app name (`/v1/launch`, `/v1/navigate`, `/v1/resolve`, `/v1/routes`).
    let apps: [any App]
    let logger: Logger
    let webClient: StaticFiles
    let authenticator: DeviceAuthenticator

    /// Checks every app's route registry (throws `RegistryProblems` for the first broken one,
    /// and refuses an empty list or two apps of one name). `webClient` is served at `/`.
    package init(
        devices: DeviceDirectory, apps: [any App], configuration: Configuration, logger: Logger, webClient: StaticFiles = .none
    ) throws {
        precondition(!apps.isEmpty, "the API serves at least one app")
        precondition(Set(apps.map(\.name)).count == apps.count, "two apps share a name")
        for app in apps {
            let problems = type(of: app).registryProblems
            guard problems.isEmpty else { throw RegistryProblems(app: app.name, problems: problems) }
        }
        self.devices = devices
        self.apps = apps
        self.configuration = configuration
        self.logger = logger
        self.webClient = webClient
        self.authenticator = DeviceAuthenticator(directory: devices)
    }

    /// A router with every endpoint, each registered with its access: device routes behind
    /// the bearer token and the per-device rate limit.
    public func makeRouter() -> some HTTPResponder {
        APIMetrics.register()
        var router = Router<APIContext>(defaultAccess: .device, admitWaiting: makeAdmission())
        router.acceptsBody = MediaType.isJSON
        router.accessForOtherMethods = { Access.leastDemanding(of: $0) }
        // Every protected route is under /v1: outside it (a browser's /favicon.ico, a typo of
        // the web client's files) a 404 tells nothing, so it needs no token.
        router.accessForUnknownPaths = { $0 == "/v1" || $0.hasPrefix("/v1/") ? .device : .open }
        router.problemTypeNamespace = Problem.routemapNamespace
        router.logger = logger
        DevicesController(
            directory: devices, enrollmentCodes: configuration.enrollmentCodes, trustedProxies: configuration.trustedProxies
        ).register(on: &router)
        DeviceManagementController(directory: devices, authenticator: authenticator).register(on: &router)
        for (index, app) in apps.enumerated() {
            register(app, on: &router, unprefixed: index == 0)
        }
        HealthController(apps: apps).register(on: &router)
        StaticFilesController(files: webClient).register(on: &router)
        if let metrics = configuration.metrics { MetricsController(endpoint: metrics).register(on: &router) }
        return APIResponder(router: router)
    }

    /// `app`'s own endpoints and its navigation endpoints under `/v1/apps/{name}`; the first
    /// app's also under `/v1`.
    private func register<A: App>(_ app: A, on router: inout Router<APIContext>, unprefixed: Bool) {
        app.register(on: &router)
        let navigation = AppNavigationController(app: app)
        navigation.register(on: &router, prefix: A.navigationPrefix)
        if unprefixed { navigation.register(on: &router, prefix: "/v1") }
    }

    /// Admission: open routes admit anyone; device routes need a valid token, then a token
    /// within its rate limit (401 before 429); manager routes then need the manager role (403).
    /// A token the store must be asked about, where its reads are round trips, is looked up
    /// with the request suspended.
    private func makeAdmission() -> Router<APIContext>.WaitingAdmission {
        let authenticator = self.authenticator
        let limiter = configuration.rateLimit > 0 ? RateLimiter(rate: configuration.rateLimit, burst: configuration.rateLimit) : nil
        @Sendable func admit(_ device: AuthenticatedDevice, to access: APIContext.Access) throws -> APIContext {
            if let limiter, let wait = limiter.spend(device.id) {
                APIMetrics.rateLimited.increment()
                throw Problem.tooManyRequests("This device is over its limit of requests per second.", retryAfter: wait)
            }
            if case .manager = access, device.role != .manager { throw Problem.managerOnly }
            return APIContext(device: device)
        }
        return { request, access in
            if case .open = access { return .now(APIContext(device: nil)) }
            switch try authenticator.authenticate(request) {
            case .now(let device): return .now(try admit(device, to: access))
            case .later(let lookUp): return .later { try admit(try await lookUp(), to: access) }
            }
        }
    }
}

// `POSError` is the domain's error, and its idempotency records hold one (a recorded conflict):
// the engine's `Idempotency` renders it, so its problems live here (`POSError+Problem.swift`).
extension POSError: ProblemConvertible {}

/// 503 `database_unavailable` with `Retry-After`: the database did not answer or is read-only,
/// gave up on a statement, kept refusing the transaction for concurrent ones, or its disk is
/// full. Nothing changed; the same request may be sent again (a payment with the same
/// `Idempotency-Key`, which replays it if it did commit).
extension StoreUnavailable: ProblemConvertible {
    public var problem: Problem {
        Problem(
            status: .serviceUnavailable, code: "database_unavailable", title: "Database unavailable",
            detail: "The database cannot serve this request now. Retry shortly; a change retried with its Idempotency-Key is performed once.",
            headers: ["Retry-After": String(retryAfterSeconds)])
    }
}
extension NavigationError: ProblemConvertible {}

/// 400 `invalid_field`: a name or reason that breaks its rule, naming the field.
extension InvalidInput: ProblemConvertible {
    public var problem: Problem { .invalidField(field, "'\(field)' must be \(rule).") }
}

/// 422 `idempotency_key_reused`, for every app's keyed changes.
extension IdempotencyKeyReused: ProblemConvertible {
    public var problem: Problem {
        Problem(
            status: .unprocessableContent, code: "idempotency_key_reused", title: "Idempotency key reused",
            detail: "The Idempotency-Key '\(key.prefix(255))' was used for a different request; use a new key for a new request.")
    }
}
