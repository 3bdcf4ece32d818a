import Foundation
import RoutemapTestSupport
import Testing

/// The real binary under a low open-file limit: it raises the soft limit as far as its
/// connection limit needs, or lowers the connection limit to fit, and says which (in its JSON log
/// lines, the default format).
@Suite("Open-file limit at start-up, end to end")
struct DescriptorLimitTests {
    @Test("soft limit below what 4096 connections need, hard limit above: the soft limit is raised")
    func raisesSoftLimit() throws {
        let server = try LimitedServer(ulimit: "ulimit -S -n 1024")
        defer { server.stop() }
        let line = try #require(server.logLine(containing: "raised the open-file limit"), "\(server.output)")
        #expect(line.contains(#""from":"1024""#))
        let raised = try #require(server.softOpenFileLimit)
        #expect(raised > 4096)
        #expect(line.contains(#""to":"\#(raised)""#))
        #expect(server.logLine(containing: #""connectionLimit":"4096""#) != nil, "\(server.output)")
        #expect(try server.healthStatus() == 200)
    }

    @Test("hard limit below what 4096 connections need: the connection limit is lowered to fit, and logged")
    func lowersConnectionLimit() throws {
        let server = try LimitedServer(ulimit: "ulimit -n 600")
        defer { server.stop() }
        let line = try #require(server.logLine(containing: "connection limit lowered"), "\(server.output)")
        #expect(line.contains(#""configured":"4096""#))
        let applied = try #require(line.firstMatch(of: /"applied":"(\d+)"/).flatMap { Int($0.1) })
        #expect(applied > 0 && applied < 600)
        #expect(server.softOpenFileLimit == 600)
        #expect(server.logLine(containing: #""connectionLimit":"\#(applied)""#) != nil, "\(server.output)")
        #expect(try server.healthStatus() == 200)
    }
}

/// `routemap serve` started by `sh` after a `ulimit` (so the limit is the process's own).
final class LimitedServer {
    let process = Process()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routemap-limit-\(UUID().uuidString)")
    private let collected = Collected()
    private(set) var port = 0

    init(ulimit: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let arguments = [
            RoutemapProcess.binary.path, "serve", "--port", "0", "--db", directory.appendingPathComponent("test.sqlite").path,
            "--migrations", RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations").path,
            "--enrollment-code", RoutemapProcess.enrollmentCode,
        ]
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(ulimit) && exec \"$@\"", "sh"] + arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ROUTEMAP_") }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let collected = self.collected
        pipe.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, process.isRunning {
            if let match = output.firstMatch(of: /listening on http:\/\/[^:]+:(\d+)/), let port = Int(match.1) {
                self.port = port
                return
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        stop()
        throw RoutemapProcessError.didNotStart(output: output)
    }

    var output: String { collected.text }

    func logLine(containing text: String) -> String? {
        output.split(separator: "\n").first { $0.contains(text) }.map(String.init)
    }

    /// The soft "Max open files" of the running server, from /proc.
    var softOpenFileLimit: Int? {
        guard let limits = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/limits", encoding: .utf8),
            let line = limits.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") })
        else { return nil }
        return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first.flatMap { Int($0) }
    }

    func healthStatus() throws -> Int {
        try TestHTTPClient(port: port, timeout: .seconds(5)).request("GET", "/healthz").status
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Output gathered from the pipe's reader thread.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()

        func append(_ more: Data) {
            lock.lock()
            data.append(more)
            lock.unlock()
        }

        var text: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
