import Foundation
import RoutemapTestSupport
import Testing

/// The README's shell examples, as a reader copies them.
enum Readme {
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")

    /// The first `sh` block of the README's section `heading` (`## Walkthrough with curl`).
    static func shellBlock(inSection heading: String) throws -> String {
        let text = try String(contentsOf: url, encoding: .utf8)
        let section = try #require(text.range(of: "\n\(heading)\n"), "README has no section \(heading)")
        let rest = text[section.upperBound...]
        let start = try #require(rest.range(of: "```sh\n"))
        let end = try #require(rest[start.upperBound...].range(of: "\n```\n"))
        return String(rest[start.upperBound..<end.lowerBound])
    }

    /// Runs `script` with bash (`-euo pipefail`: a step that fails stops it, as the container
    /// test runs it), with `environment`; its exit status and everything it printed. Killed past
    /// `timeout` seconds (a curl that hangs on a wedged server), as ``runRoutemap(_:environment:timeout:)`` is.
    static func run(_ script: String, environment: [String: String] = [:], timeout: TimeInterval = 120) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-euo", "pipefail", "-c", script]
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { mine, _ in mine }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let deadline = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        deadline.cancel()
        return (process.terminationStatus, output)
    }
}

/// The README's curl walkthrough of the point of sale, run as written against the real binary
/// (the container test runs it too, in the image, but only where it can build one: as root in CI).
@Suite("README: the curl walkthrough")
struct ReadmeWalkthroughTests {
    @Test("the walkthrough enrolls, orders, pays cash with a tip, reads the payment back and meets the errors it shows")
    func walkthroughPays() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            Issue.record("curl is missing (./scripts/test installs it)")
            return
        }
        // The demo enrollment code the walkthrough enrolls with (`./scripts/run` sets it).
        let process = try RoutemapProcess(arguments: ["--enrollment-code", "routemap-demo"])
        defer { process.cleanUp() }
        let script = try Readme.shellBlock(inSection: "## Walkthrough with curl")
        #expect(script.components(separatedBy: "localhost:8080").count > 10, "the walkthrough was not found")
        let (status, output) = try Readme.run(script.replacingOccurrences(of: "localhost:8080", with: "localhost:\(process.port)"))
        #expect(status == 0, "\(output)")
        for (expected, what) in [
            ("HTTP/1.1 304", "If-None-Match with the menu's ETag"),
            ("\"tipMinor\":150,\"chargedMinor\":1183,\"tenderedMinor\":2000,\"changeMinor\":817", "the cash payment read back by its id"),
            ("\"status\":\"paid\"", "the paid bill"),
            ("\"code\":\"not_found\"", "an unknown bill"),
            ("\"code\":\"bill_not_open\"", "adding to a paid bill"),
            ("HTTP/1.1 401", "a request without a token"),
            ("{\"status\":\"ok\"}", "/healthz"),
        ] {
            #expect(output.contains(expected), "\(what): \(output)")
        }
        #expect(output.split(separator: "\n").contains("1033"), "the checked-out total: \(output)")
    }
}
