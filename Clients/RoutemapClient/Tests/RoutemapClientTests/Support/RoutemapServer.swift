import Foundation
import Testing

@testable import RoutemapClient

/// The real `routemap` binary, built by the repository's root package, started as the root
/// package's end-to-end tests start it: `serve` on a free port with a new SQLite file in a
/// temporary directory. Stopped (SIGTERM) and removed by `stop()`.
final class RoutemapServer: Sendable {
    static let enrollmentCode = "client-tests-enrollment"
    /// The code a manager's device enrolls with (`role` `manager`).
    static let managerEnrollmentCode = "client-tests-manager-enrollment"

    let baseURL: URL
    private let process: Process
    private let directory: URL

    /// `ROUTEMAP_BINARY`, else the root package's debug build (`../../.build/debug/routemap`).
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["ROUTEMAP_BINARY"] { return URL(fileURLWithPath: path) }
        return PackageLocation.repositoryRoot.appendingPathComponent(".build/debug/routemap")
    }

    /// The migrations of the binary's repository: `ROUTEMAP_MIGRATIONS`, else the nearest
    /// `Migrations` folder above the binary (`<repository>/.build/debug/routemap`).
    static var migrations: URL { besideBinary("Migrations", overriddenBy: "ROUTEMAP_MIGRATIONS") }

    /// The web client's files, which `serve` needs: `ROUTEMAP_PUBLIC`, else the nearest `Public`
    /// folder above the binary.
    static var publicFiles: URL { besideBinary("Public", overriddenBy: "ROUTEMAP_PUBLIC") }

    private static func besideBinary(_ name: String, overriddenBy variable: String) -> URL {
        if let path = ProcessInfo.processInfo.environment[variable] { return URL(fileURLWithPath: path) }
        var directory = binary.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return PackageLocation.repositoryRoot.appendingPathComponent(name)
    }

    init() throws {
        let binary = Self.binary
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw TestSetupError(
                "The routemap binary is missing at \(binary.path). Build it first (`swift build` in the repository root, as "
                    + "./scripts/test does before these tests) or set ROUTEMAP_BINARY to a built binary.")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("routemap-client-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = binary
        process.arguments = [
            "serve", "--port", "0", "--db", directory.appendingPathComponent("test.sqlite").path, "--migrations", Self.migrations.path,
            "--public", Self.publicFiles.path, "--enrollment-code", Self.enrollmentCode, "--manager-enrollment-code", Self.managerEnrollmentCode,
            "--rate-limit", "0",
        ]
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ROUTEMAP_") }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        self.process = process
        // Read until the line that names the port (the server prints it once it listens).
        var log = Data()
        let reader = output.fileHandleForReading
        let deadline = Date().addingTimeInterval(30)
        var port: Int?
        while port == nil, Date() < deadline, process.isRunning {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            log.append(chunk)
            let text = String(decoding: log, as: UTF8.self)
            if let range = text.range(of: #"listening on http://[^:]+:(\d+)"#, options: .regularExpression) {
                port = Int(text[range].split(separator: ":").last ?? "")
            }
        }
        guard let port else {
            if process.isRunning { process.terminate() }
            throw TestSetupError("routemap did not start listening; it wrote:\n" + String(decoding: log, as: UTF8.self))
        }
        // Keep draining its output so the server never blocks on a full pipe: with blocking reads
        // on a thread of its own, not `readabilityHandler`, whose libdispatch read source on Linux
        // runs in an epoll loop that has crashed test processes (SIGSEGV in
        // `_dispatch_event_loop_drain`).
        let descriptor = fcntl(reader.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        if descriptor >= 0 {
            Thread {
                var buffer = [UInt8](repeating: 0, count: 16 * 1024)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { break }
                }
                close(descriptor)
            }.start()
        }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// A client with a newly enrolled device's token.
    func enrolledClient(capabilities: AppCapabilities = .everything, transport: any HTTPTransport = URLSessionTransport()) async throws -> APIClient {
        let client = APIClient(baseURL: baseURL, capabilities: capabilities, transport: transport, retry: .init(maxAttempts: 3, delay: .milliseconds(50)))
        try await client.enroll(name: "client test till", enrollmentCode: Self.enrollmentCode)
        return client
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
