import Foundation
import RoutemapJSON

/// The real `routemap` binary, started on a free port with a temporary database, for
/// end-to-end tests. Stops (SIGTERM) and removes its files when asked.
public final class RoutemapProcess: @unchecked Sendable {
    // @unchecked: `process` and `enrolledToken` are touched by the creating test only; `output`
    // is Sendable.
    public let process: Process
    public private(set) var port: Int
    public let databasePath: String
    public let directory: URL
    private let output: PipeReader
    private var enrolledToken: String?
    /// Whether this process made its PostgreSQL database (and drops it in ``cleanUp()``).
    private var ownsDatabase = false

    /// The enrollment code every test server runs with, unless a test passes its own.
    public static let enrollmentCode = "e2e-enrollment-code"

    /// The repository root, found from this file's location.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built `routemap` binary: `ROUTEMAP_BINARY`, or beside the test bundle.
    public static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["ROUTEMAP_BINARY"] { return URL(fileURLWithPath: path) }
        let testBundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBundle.deletingLastPathComponent()
        // On Linux the runner is `.build/debug/routemapPackageTests.xctest`; elsewhere it may sit deeper.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("routemap")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return testBundle.deletingLastPathComponent().appendingPathComponent("routemap")
    }

    /// Starts `routemap serve --port 0` on a new database in a new temporary directory (or on
    /// `databasePath`, to restart on an existing one) and waits until it listens.
    /// `token` reuses a device enrolled earlier on the same database (after a restart).
    ///
    /// When `ROUTEMAP_TEST_DATABASE_URL` is set (and `sqliteOnly` is false), the database is a
    /// new PostgreSQL database on that server instead, and `databasePath` is its URL: pass it
    /// to a second process to run a second node on the same database.
    public init(
        arguments: [String] = [], environment: [String: String] = [:], databasePath: String? = nil, token: String? = nil,
        sqliteOnly: Bool = false
    ) throws {
        enrolledToken = token
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("routemap-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let onPostgres = TestPostgres.isEnabled && !sqliteOnly
        if onPostgres {
            ownsDatabase = databasePath == nil
            self.databasePath = try databasePath ?? TestPostgres.newDatabase()
        } else {
            self.databasePath = databasePath ?? directory.appendingPathComponent("test.sqlite").path
        }
        let process = Process()
        process.executableURL = Self.binary
        process.arguments =
            [
                "serve", "--port", "0",
                "--migrations", Self.repositoryRoot.appendingPathComponent("Migrations").path,
            ]
            + (onPostgres ? ["--database-url", self.databasePath, "--db", directory.appendingPathComponent("unused.sqlite").path] : ["--db", self.databasePath])
            + (arguments.contains("--public") ? [] : ["--public", Self.repositoryRoot.appendingPathComponent("Public").path])
            + (arguments.contains("--enrollment-code") ? [] : ["--enrollment-code", Self.enrollmentCode])
            // Tests send bursts far above a till's rate; the rate-limit tests turn it on themselves.
            + (arguments.contains("--rate-limit") ? [] : ["--rate-limit", "0"])
            + arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ROUTEMAP_") }
        env.merge(environment) { _, new in new }
        process.environment = env
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = stdout
        self.process = process
        self.port = 0
        output = PipeReader(stdout)
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        var found: Int?
        while found == nil, Date() < deadline, process.isRunning {
            if let range = outputText.range(of: #"listening on https?://(\[[0-9a-fA-F:.]+\]|[^:]+):(\d+)"#, options: .regularExpression) {
                let match = outputText[range]
                found = Int(match.split(separator: ":").last ?? "")
            } else {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        guard let found else {
            if process.isRunning { process.terminate() }
            throw RoutemapProcessError.didNotStart(output: outputText)
        }
        self.port = found
    }

    /// Whether the process runs on PostgreSQL (`databasePath` is then the database's URL).
    public var onPostgres: Bool { databasePath.hasPrefix("postgres") }

    /// The arguments that name this process's database to another `routemap` command
    /// (`devices`, `menu`, `migrate`): `--db PATH`, or `--database-url URL`.
    public var databaseArguments: [String] { onPostgres ? ["--database-url", databasePath] : ["--db", databasePath] }

    /// Everything the process wrote to stdout and stderr so far.
    public var outputText: String { output.text }

    /// A new keep-alive client connected to this server; unless `authorized` is false it sends
    /// the token of a device enrolled once per process (`token()`).
    public func client(authorized: Bool = true) throws -> TestHTTPClient {
        let client = try TestHTTPClient(host: "127.0.0.1", port: port)
        if authorized { client.defaultHeaders = [("Authorization", "Bearer \(try token())")] }
        return client
    }

    /// The token of this process's default device, enrolled on first use.
    public func token() throws -> String {
        if let enrolledToken { return enrolledToken }
        let token = try enroll(name: "e2e till")
        enrolledToken = token
        return token
    }

    /// Enrolls a new device called `name` with the test enrollment code; returns its token.
    public func enroll(name: String) throws -> String {
        let client = try TestHTTPClient(host: "127.0.0.1", port: port)
        let response = try client.json("POST", "/v1/devices", ["name": .string(name), "enrollmentCode": .string(Self.enrollmentCode)])
        guard response.status == 201, let token = response.json["token"]?.stringValue else {
            throw RoutemapProcessError.enrollmentFailed(status: response.status, body: response.text)
        }
        return token
    }

    /// Sends `signal` (SIGTERM by default) and waits for the exit; returns the exit status.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 20) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    /// Stops the server if it still runs and deletes its temporary directory.
    public func cleanUp() {
        if process.isRunning { stop() }
        try? FileManager.default.removeItem(at: directory)
        if ownsDatabase {
            ownsDatabase = false
            TestPostgres.dropDatabase(databasePath)
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

public enum RoutemapProcessError: Error, CustomStringConvertible {
    case didNotStart(output: String)
    case enrollmentFailed(status: Int, body: String)

    public var description: String {
        switch self {
        case .didNotStart(let output): return "routemap did not start listening; its output:\n\(output)"
        case .enrollmentFailed(let status, let body): return "enrolling a test device failed: \(status) \(body)"
        }
    }
}
