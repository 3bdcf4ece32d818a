import Foundation
import Logging
import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapPOS
import RoutemapTestSupport
import Testing

/// routemap's API over an in-memory store, driven through its one request pipeline in
/// process (no socket), with one enrolled device and the shorthands the end-to-end `Server`
/// has. The wire, the process and the disk are the end-to-end tests' business.
final class InProcessAPI: Sendable {
    static let enrollmentCode = "in-process-code"
    static let managerEnrollmentCode = "in-process-manager-code"
    /// The demo menu's items the tests use, at the demo prices.
    static let menu: [MenuItem] = [
        MenuItem(id: "espresso", name: "Espresso", category: "coffee", priceMinor: 300, currency: .usd, available: true),
        MenuItem(id: "latte", name: "Latte", category: "coffee", priceMinor: 475, currency: .usd, available: true),
        MenuItem(
            id: "pumpkin-spice-latte", name: "Pumpkin Spice Latte", category: "coffee", priceMinor: 575, currency: .usd, available: false),
        MenuItem(id: "croissant", name: "Butter Croissant", category: "bakery", priceMinor: 350, currency: .usd, available: true),
        MenuItem(id: "bagel", name: "Bagel with Cream Cheese", category: "food", priceMinor: 450, currency: .usd, available: true),
    ]

    let store: InMemoryStore
    /// The app served, for its background work (`runInBackground`), which the server's
    /// service group runs and these tests run themselves where they need it.
    let app: POSApp
    let responder: any HTTPResponder
    let maxBodyBytes: Int
    /// The enrolled device's bearer token.
    let token: String

    init(
        rateLimit: Double = 0, maxBodyBytes: Int = 65_536, managerEnrollmentCode: String? = InProcessAPI.managerEnrollmentCode,
        trustedProxies: TrustedProxies = TrustedProxies(), readsAreImmediate: Bool = true, shop: ShopDetails = ShopDetails(),
        tillDiscountLimitBasisPoints: Int = 0
    ) async throws {
        store = InMemoryStore(menu: Self.menu, readsAreImmediate: readsAreImmediate)
        let till = Till(
            store: store, taxRate: TaxRate(basisPoints: 875)!, currency: .usd, shop: shop, tillDiscountLimitBasisPoints: tillDiscountLimitBasisPoints)
        app = try POSApp(till: till, idempotency: Idempotency())
        let api = try API(
            devices: DeviceDirectory(store: store), apps: [app],
            configuration: API.Configuration(
                enrollmentCode: Self.enrollmentCode, managerEnrollmentCode: managerEnrollmentCode, rateLimit: rateLimit,
                trustedProxies: trustedProxies),
            logger: Logger(label: "routemap.api-tests"))
        responder = api.makeRouter()
        self.maxBodyBytes = maxBodyBytes
        let enrolled = await Self.respond(
            responder, Request(method: .POST, path: "/v1/devices", headers: ["Content-Type": "application/json"],
                body: (["name": "tests", "enrollmentCode": .string(Self.enrollmentCode)] as JSON).encoded()),
            maxBodyBytes: maxBodyBytes)
        token = try #require(enrolled.json["token"]?.stringValue)
    }

    /// Sends a request through the pipeline, as the enrolled device unless `headers` has an
    /// `Authorization` (or `authorized` is false). Paying gets a fresh `Idempotency-Key` unless
    /// `headers` has one.
    func send(
        _ method: String, _ path: String, json body: JSON? = nil, headers: [(String, String)] = [], authorized: Bool = true,
        rawBody: [UInt8]? = nil
    ) async -> TestResponse {
        await Self.respond(responder, request(method, path, json: body, headers: headers, authorized: authorized, rawBody: rawBody), maxBodyBytes: maxBodyBytes)
    }

    /// What the pipeline decides for a request built as `send` builds it, before anything runs
    /// that waits: to tell answers given at once from those that suspend.
    func dispatch(_ method: String, _ path: String, json body: JSON? = nil) -> Dispatch {
        responder.dispatch(request(method, path, json: body), Reception(maxBodyBytes: maxBodyBytes))
    }

    private func request(
        _ method: String, _ path: String, json body: JSON? = nil, headers: [(String, String)] = [], authorized: Bool = true,
        rawBody: [UInt8]? = nil
    ) -> Request {
        var fields = HTTPHeaders(headers)
        if authorized, fields["Authorization"] == nil { fields.add(name: "Authorization", value: "Bearer \(token)") }
        if path.hasSuffix("/pay"), fields["Idempotency-Key"] == nil { fields.add(name: "Idempotency-Key", value: UUID().uuidString) }
        if body != nil, fields["Content-Type"] == nil { fields.add(name: "Content-Type", value: "application/json") }
        let (pathOnly, query) = Self.split(path)
        return Request(
            method: HTTPMethod(rawValue: method), path: pathOnly, query: query, headers: fields, body: rawBody ?? body?.encoded() ?? [])
    }

    func get(_ path: String, headers: [(String, String)] = []) async -> TestResponse {
        await send("GET", path, headers: headers)
    }

    func navigate(_ body: JSON, headers: [(String, String)] = []) async -> TestResponse {
        await send("POST", "/v1/navigate", json: body, headers: headers)
    }

    /// `POST /v1/bills`, expecting 201; returns the new bill.
    func newBill() async throws -> JSON {
        let response = await send("POST", "/v1/bills")
        try #require(response.status == 201, "\(response.text)")
        return try #require(response.json["bill"])
    }

    /// Adds `quantity` of `menuItemId`, expecting 200; returns the bill.
    @discardableResult
    func add(_ menuItemId: String, _ quantity: Int64 = 1, to billId: String) async throws -> JSON {
        let response = await send("POST", "/v1/bills/\(billId)/items", json: ["menuItemId": .string(menuItemId), "quantity": .int(quantity)])
        try #require(response.status == 200, "\(response.text)")
        return try #require(response.json["bill"])
    }

    func bill(_ id: String) async throws -> JSON {
        let response = await get("/v1/bills/\(id)")
        try #require(response.status == 200, "\(response.text)")
        return response.json
    }

    /// Sends `request` as it is (no token added).
    func send(_ request: Request) async -> TestResponse {
        await Self.respond(responder, request, maxBodyBytes: maxBodyBytes)
    }

    /// The answer as a client would read it.
    private static func respond(_ responder: any HTTPResponder, _ request: Request, maxBodyBytes: Int) async -> TestResponse {
        let response = await responder.respond(to: request, maxBodyBytes: maxBodyBytes)
        return TestResponse(
            status: response.status.code, reason: "", headers: response.headers.map { (name: $0.name, value: $0.value) },
            body: request.method == .HEAD ? [] : response.body)
    }

    /// Path and decoded query of a request target.
    private static func split(_ target: String) -> (String, [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if query[parts[0]] == nil { query[parts[0]] = parts.count > 1 ? parts[1] : "" }
        }
        return (String(target[..<mark]), query)
    }
}

extension JSON {
    var string: String { stringValue ?? "" }
    var int: Int64 { int64Value ?? .min }
    var array: [JSON] { arrayValue ?? [] }
}

