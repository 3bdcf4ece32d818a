import Foundation
import GRDB
import Logging
import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON
import RoutemapPOS
import RoutemapStorage
import RoutemapTestSupport
import RoutemapTrivia
import Synchronization
import Testing

/// The API with both apps, the point of sale and trivia, over a real SQLite file migrated with
/// the repository's migrations, driven through its one request pipeline in process. One device
/// is enrolled; `reopen()` closes the file and serves it again, as a restart would.
final class TriviaServer: Sendable {
    static let enrollmentCode = "trivia-tests-code"
    static let migrationsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Migrations", isDirectory: true)

    let directory: URL
    let path: String
    /// The open store and the API over it: replaced by `reopen()`.
    private let served: Mutex<(store: SQLiteStore, responder: any HTTPResponder)>
    /// The enrolled device's bearer token.
    let token: String

    var store: SQLiteStore { served.withLock { $0.store } }
    /// The API serving both apps, in ``appNames``'s order.
    var responder: any HTTPResponder { served.withLock { $0.responder } }

    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("routemap-trivia-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("routemap.sqlite").path
        served = Mutex(try Self.open(path))
        token = try await Self.enroll("trivia tests", served.withLock { $0.responder })
    }

    deinit {
        try? store.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The apps served, in the executable's order (`Sources/routemap/Apps.swift`).
    static let appNames = [POSApp.name, TriviaApp.name]

    private static func open(_ path: String) throws -> (store: SQLiteStore, responder: any HTTPResponder) {
        let store = try SQLiteStore(path: path, migrations: try MigrationLoader.load(directory: migrationsDirectory))
        return (store, try makeResponder(store, serving: appNames))
    }

    /// Another API over the same file, serving only the apps named (of ``appNames``), in the
    /// order given: the enrolled device's token works there too.
    func responder(serving names: [String]) throws -> any HTTPResponder {
        try Self.makeResponder(store, serving: names)
    }

    private static func makeResponder(_ store: SQLiteStore, serving names: [String]) throws -> any HTTPResponder {
        let till = Till(store: store, taxRate: TaxRate(basisPoints: 875)!, currency: .usd)
        let idempotency = Idempotency()
        let apps: [any App] = try names.map { name in
            switch name {
            case POSApp.name: try POSApp(till: till, idempotency: idempotency)
            case TriviaApp.name: try TriviaApp(store: SQLiteTriviaStore(store), idempotency: idempotency)
            default: preconditionFailure("no app named \(name)")
            }
        }
        let api = try API(
            devices: DeviceDirectory(store: store), apps: apps,
            configuration: API.Configuration(enrollmentCode: enrollmentCode, rateLimit: 0), logger: Logger(label: "routemap.trivia-tests"))
        return api.makeRouter()
    }

    /// Closes the database and serves it again from a new store and API.
    func reopen() throws {
        try store.close()
        let reopened = try Self.open(path)
        served.withLock { $0 = reopened }
    }

    /// Enrolls another device; returns its token.
    func enroll(_ name: String) async throws -> String {
        try await Self.enroll(name, served.withLock { $0.responder })
    }

    private static func enroll(_ name: String, _ responder: any HTTPResponder) async throws -> String {
        let body: JSON = ["name": .string(name), "enrollmentCode": .string(enrollmentCode)]
        let request = Request(method: .POST, path: "/v1/devices", headers: ["Content-Type": "application/json"], body: body.encoded())
        let response = await responder.respond(to: request, maxBodyBytes: 65_536)
        let token = (try? JSON.parse(response.body))?["token"]?.stringValue
        return try #require(token, "\(String(decoding: response.body, as: UTF8.self))")
    }

    /// Sends a request through the pipeline as the device with `token` (the enrolled one by default).
    func send(_ method: String, _ target: String, json body: JSON? = nil, token: String? = "", headers: [(String, String)] = []) async -> TestResponse {
        var fields = HTTPHeaders(headers)
        if let token { fields.add(name: "Authorization", value: "Bearer \(token.isEmpty ? self.token : token)") }
        if body != nil { fields.add(name: "Content-Type", value: "application/json") }
        let (path, query) = Self.split(target)
        let request = Request(method: HTTPMethod(rawValue: method), path: path, query: query, headers: fields, body: body?.encoded() ?? [])
        let response = await served.withLock { $0.responder }.respond(to: request, maxBodyBytes: 65_536)
        return TestResponse(status: response.status.code, reason: "", headers: response.headers.map { (name: $0.name, value: $0.value) }, body: response.body)
    }

    func get(_ target: String, token: String? = "") async -> TestResponse { await send("GET", target, token: token) }

    /// `POST /v1/apps/trivia/navigate`.
    func navigate(_ body: JSON, token: String? = "") async -> TestResponse { await send("POST", "/v1/apps/trivia/navigate", json: body, token: token) }

    /// Starts a game, expecting 201; returns the answer (`game`, `navigation`).
    func start(_ difficulty: String, _ category: String? = nil, token: String? = "") async throws -> JSON {
        var body: JSONObject = ["difficulty": .string(difficulty)]
        if let category { body.append("category", .string(category)) }
        let response = await send("POST", "/v1/trivia/games", json: .object(body), token: token)
        try #require(response.status == 201, "\(response.text)")
        return response.json
    }

    /// The question bank as stored: to know the correct answers the API never shows before.
    func bank() throws -> [String: Question] {
        Dictionary(uniqueKeysWithValues: try SQLiteTriviaStore(store).questions().map { ($0.id, $0) })
    }

    /// How many games the file holds.
    func gameCount() throws -> Int {
        try store.readTables("counting games") { try Int.fetchOne($0, sql: "SELECT count(*) FROM trivia_games") ?? -1 }
    }

    private static func split(_ target: String) -> (String, [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            query[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return (String(target[..<mark]), query)
    }
}

extension JSON {
    var string: String { stringValue ?? "" }
    var int: Int64 { int64Value ?? .min }
    var array: [JSON] { arrayValue ?? [] }
}

/// The steps of an answer as `"op route"`.
func ops(_ response: TestResponse) -> [String] {
    response.json["navigation"]?.array.map { "\($0["op"]!.string) \($0["route"]!.string)" } ?? []
}

/// The stack of an answer as `route{name=value,…}` strings.
func stack(_ response: TestResponse) -> [String] {
    response.json["stack"]?.array.map { entry in
        let inputs = entry["inputs"]?.objectValue.map { object in object.keys.sorted().map { "\($0)=\(object[$0]!.string)" } } ?? []
        return entry["route"]!.string + (inputs.isEmpty ? "" : "{\(inputs.joined(separator: ","))}")
    } ?? []
}

/// Step `index`'s screen.
func screen(_ response: TestResponse, _ index: Int) -> JSON {
    response.json["navigation"]?.array[index]["screen"] ?? .null
}
