import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// A running `routemap` with one keep-alive connection, and shorthands for the API's calls.
final class Server {
    let process: RoutemapProcess
    let client: TestHTTPClient

    init(arguments: [String] = []) throws {
        process = try RoutemapProcess(arguments: arguments)
        client = try process.client()
    }

    deinit { process.cleanUp() }

    func get(_ path: String, headers: [(String, String)] = []) throws -> TestResponse {
        try client.request("GET", path, headers: headers)
    }

    /// Sends a request as the process's default device. Paying needs an `Idempotency-Key`: a
    /// fresh one is added unless `headers` has one (the trust tests set their own).
    func send(_ method: String, _ path: String, json body: JSON? = nil, headers: [(String, String)] = []) throws -> TestResponse {
        var headers = headers
        if path.hasSuffix("/pay"), !headers.contains(where: { $0.0 == "Idempotency-Key" }) {
            headers.append(("Idempotency-Key", UUID().uuidString))
        }
        guard let body else { return try client.request(method, path, headers: headers) }
        return try client.request(method, path, headers: [("Content-Type", "application/json")] + headers, body: body.encoded())
    }

    /// `POST /v1/navigate` with `body`.
    func navigate(_ body: JSON, headers: [(String, String)] = []) throws -> TestResponse {
        try send("POST", "/v1/navigate", json: body, headers: headers)
    }

    /// `POST /v1/bills`, expecting 201; returns the new bill.
    func newBill() throws -> JSON {
        let response = try send("POST", "/v1/bills")
        try #require(response.status == 201, "\(response.text)")
        return try #require(response.json["bill"])
    }

    /// Adds `quantity` of `menuItemId`, expecting 200; returns the bill.
    @discardableResult
    func add(_ menuItemId: String, _ quantity: Int64 = 1, to billId: String) throws -> JSON {
        let response = try send("POST", "/v1/bills/\(billId)/items", json: ["menuItemId": .string(menuItemId), "quantity": .int(quantity)])
        try #require(response.status == 200, "\(response.text)")
        return try #require(response.json["bill"])
    }

    func bill(_ id: String) throws -> JSON {
        let response = try get("/v1/bills/\(id)")
        try #require(response.status == 200, "\(response.text)")
        return response.json
    }
}

extension JSON {
    var string: String { stringValue ?? "" }
    var int: Int64 { int64Value ?? .min }
    var array: [JSON] { arrayValue ?? [] }
}

/// Runs the binary to completion and returns its exit status and combined output. Past
/// `timeout` seconds (a `serve` that should have refused to start, and runs) it is killed.
func runRoutemap(_ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 600) throws -> (
    status: Int32, output: String
) {
    let process = Process()
    process.executableURL = RoutemapProcess.binary
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ROUTEMAP_") }
    env.merge(environment) { _, new in new }
    process.environment = env
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let deadline = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    deadline.cancel()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// The binary started with exactly `arguments` (no port or database chosen for it, unlike
/// ``RoutemapProcess``, which waits until it listens), its output read as it comes: for what a
/// command does before it serves. ``killIfRunning()`` when done.
final class RoutemapChild {
    let process: Process
    private let output: PipeReader

    init(_ arguments: [String]) throws {
        process = Process()
        process.executableURL = RoutemapProcess.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ROUTEMAP_") }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        output = PipeReader(pipe)
        try process.run()
    }

    /// Everything it wrote to stdout and stderr so far.
    var outputText: String { output.text }

    /// Whether `text` appeared in its output within `timeout` seconds (`false` as soon as it exits without it).
    func waitForOutput(_ text: String, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !outputText.contains(text), process.isRunning, Date() < deadline { usleep(20_000) }
        return outputText.contains(text)
    }

    func killIfRunning() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
