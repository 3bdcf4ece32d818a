import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `routemap healthcheck`: asks a running server's `/healthz` and exits 0 only on 200, so the
/// container's `HEALTHCHECK` needs no curl in the image.
struct HealthcheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Exit 0 if the server at --host/--port answers GET /healthz with 200.")

    @Option(help: "Server address. Default: 127.0.0.1")
    var host = "127.0.0.1"

    @Option(help: "Server port. Env: ROUTEMAP_PORT. Default: 8080")
    var port: UInt16?

    @Option(help: "Seconds to wait for the answer.")
    var timeout = 3

    func run() throws {
        let port = try port ?? Environment.integer("ROUTEMAP_PORT", as: UInt16.self) ?? 8080
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { throw ValidationError("not an IPv4 address: \(host)") }
        // Unhealthy (no answer, or not 200) is exit status 1 with one line, never a usage error.
        let status: Int
        do {
            status = try Self.status(host: host, port: port, timeout: timeout)
        } catch {
            print("routemap: unhealthy: \(error)")
            throw ExitCode.failure
        }
        guard status == 200 else {
            print("routemap: /healthz answered \(status)")
            throw ExitCode.failure
        }
    }

    /// The status code of `GET /healthz`, over a plain IPv4 socket.
    static func status(host: String, port: UInt16, timeout: Int) throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HealthcheckError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw ValidationError("not an IPv4 address: \(host)") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw HealthcheckError("cannot connect to \(host):\(port): \(String(cString: strerror(errno)))") }
        let request = Array("GET /healthz HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, 0) == request.count else { throw HealthcheckError("cannot send the request") }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 12 else { throw HealthcheckError("no answer from \(host):\(port)") }
        // "HTTP/1.1 200 OK": the status is the second word.
        let line = String(decoding: buffer[0..<count], as: UTF8.self)
        let words = line.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, let status = Int(words[1]) else { throw HealthcheckError("not an HTTP answer") }
        return status
    }
}

/// Why a health check got no usable answer.
struct HealthcheckError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
