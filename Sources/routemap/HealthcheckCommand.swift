import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `routemap healthcheck`: asks a running server's `/healthz` and exits 0 only on 200, so the
/// container's `HEALTHCHECK` needs no curl in the image. It speaks HTTPS when the server does:
/// when `--tls` is given or `ROUTEMAP_TLS_CERT` is set (the variable `serve` reads), and, for a
/// server given `--tls-cert` on its command line, when plain HTTP gets no HTTP answer.
struct HealthcheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Exit 0 if the server at --host/--port answers GET /healthz with 200.",
        discussion: """
            HTTPS with --tls or when ROUTEMAP_TLS_CERT is set; otherwise plain HTTP, then HTTPS \
            when the server's answer is not HTTP. The server's certificate is not verified: the \
            probe sends no secret and reads only the status.
            """)

    @Option(help: "Server address. Default: 127.0.0.1")
    var host = "127.0.0.1"

    @Option(help: "Server port. Env: ROUTEMAP_PORT. Default: 8080")
    var port: UInt16?

    @Option(help: "Seconds to wait for the answer.")
    var timeout = 3

    @Flag(help: "Speak HTTPS (the default when ROUTEMAP_TLS_CERT is set).")
    var tls = false

    func run() throws {
        let port = try port ?? Environment.integer("ROUTEMAP_PORT", as: UInt16.self) ?? 8080
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { throw ValidationError("not an IPv4 address: \(host)") }
        let knownTLS = tls || Environment.value(Settings.tlsCertificate.environment) != nil
        // Unhealthy (no answer, or not 200) is exit status 1 with one line, never a usage error.
        let status: Int
        do {
            if knownTLS {
                status = try Self.status(host: host, port: port, timeout: timeout, tls: true)
            } else {
                do {
                    status = try Self.status(host: host, port: port, timeout: timeout, tls: false)
                } catch HealthcheckError.notHTTP {
                    status = try Self.status(host: host, port: port, timeout: timeout, tls: true)
                }
            }
        } catch {
            print("routemap: unhealthy: \(error)")
            throw ExitCode.failure
        }
        guard status == 200 else {
            print("routemap: /healthz answered \(status)")
            throw ExitCode.failure
        }
    }

    /// The status code of `GET /healthz`, over a plain IPv4 socket or a TLS session on it.
    static func status(host: String, port: UInt16, timeout: Int, tls: Bool) throws(HealthcheckError) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HealthcheckError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { throw HealthcheckError("not an IPv4 address: \(host)") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw HealthcheckError("cannot connect to \(host):\(port): \(String(cString: strerror(errno)))") }
        let request = Array("GET /healthz HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
        let answer: [UInt8]
        if tls {
            let session = try TLSClientSession(socket: fd)
            try session.send(request)
            answer = try session.receive(upTo: 64)
        } else {
            guard send(fd, request, request.count, 0) == request.count else { throw HealthcheckError("cannot send the request") }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = recv(fd, &buffer, buffer.count, 0)
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { throw HealthcheckError("no answer within \(timeout) s") }
            answer = Array(buffer[0..<max(0, count)])
        }
        // "HTTP/1.1 200 OK": the status is the second word.
        let words = String(decoding: answer, as: UTF8.self).split(separator: " ", maxSplits: 2)
        guard answer.starts(with: Array("HTTP/".utf8)), words.count >= 2, let status = Int(words[1]) else {
            throw .notHTTP(answer.isEmpty ? "no answer from \(host):\(port)" : "not an HTTP answer from \(host):\(port)")
        }
        return status
    }
}

/// Why a health check got no usable answer.
enum HealthcheckError: Error, CustomStringConvertible {
    /// The server could not be reached, or TLS failed.
    case failed(String)
    /// The server answered, or closed the connection, without an HTTP status line: perhaps it
    /// speaks HTTPS.
    case notHTTP(String)

    init(_ description: String) { self = .failed(description) }

    var description: String {
        switch self {
        case .failed(let text), .notHTTP(let text): text
        }
    }
}
