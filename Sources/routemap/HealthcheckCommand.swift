import ArgumentParser
import Foundation
import RoutemapHTTP

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

    @Option(help: "Server address, IPv4 or IPv6. Env: ROUTEMAP_HOST (0.0.0.0 is probed at 127.0.0.1, :: at ::1). Default: 127.0.0.1")
    var host: String?

    @Option(help: "Server port. Env: ROUTEMAP_PORT. Default: 8080")
    var port: UInt16?

    @Option(help: "Seconds to wait for the answer.")
    var timeout = 3

    @Flag(help: "Speak HTTPS (the default when ROUTEMAP_TLS_CERT is set).")
    var tls = false

    func run() throws {
        let port = try port ?? Environment.integer("ROUTEMAP_PORT", as: UInt16.self) ?? 8080
        let host = Self.probed(host ?? Environment.value(Settings.host.environment) ?? "127.0.0.1")
        guard let address = IPAddress(host).map({ ProbeAddress($0, port: port) }) else {
            throw refusal("--host (ROUTEMAP_HOST) must be a numeric IPv4 or IPv6 address, not '\(host.prefix(60))'", exitStatus: 64)
        }
        let knownTLS = tls || Environment.value(Settings.tlsCertificate.environment) != nil
        // Unhealthy (no answer, or not 200) is exit status 1 with one line, never a usage error.
        let status: Int
        do {
            if knownTLS {
                status = try Self.status(of: address, timeout: timeout, tls: true)
            } else {
                do {
                    status = try Self.status(of: address, timeout: timeout, tls: false)
                } catch HealthcheckError.notHTTP {
                    status = try Self.status(of: address, timeout: timeout, tls: true)
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

    /// The address to probe for a listening address: the loopback of its family for a
    /// wildcard, the address itself otherwise (brackets around an IPv6 one dropped).
    static func probed(_ listening: String) -> String {
        let bare = listening.hasPrefix("[") && listening.hasSuffix("]") ? String(listening.dropFirst().dropLast()) : listening
        switch bare {
        case "0.0.0.0": return "127.0.0.1"
        case "::": return "::1"
        default: return bare
        }
    }

    /// The status code of `GET /healthz`, over a plain socket or a TLS session on it.
    static func status(of address: ProbeAddress, timeout: Int, tls: Bool) throws(HealthcheckError) -> Int {
        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HealthcheckError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        guard address.connectSocket(fd) == 0 else {
            throw HealthcheckError("cannot connect to \(address.authority): \(String(cString: strerror(errno)))")
        }
        let request = Array("GET /healthz HTTP/1.1\r\nHost: \(address.authority)\r\nConnection: close\r\n\r\n".utf8)
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
            throw .notHTTP(answer.isEmpty ? "no answer from \(address.authority)" : "not an HTTP answer from \(address.authority)")
        }
        return status
    }
}

/// A numeric IPv4 or IPv6 address and port to connect to.
struct ProbeAddress {
    private enum Storage {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }
    private let storage: Storage
    /// `host:port`, with the IPv6 address in brackets: for the Host field and messages.
    let authority: String

    init(_ address: IPAddress, port: UInt16) {
        if address.isIPv4 {
            var v4 = sockaddr_in()
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            withUnsafeMutableBytes(of: &v4.sin_addr) { $0.copyBytes(from: address.bytes[12...]) }
            storage = .v4(v4)
            authority = "\(address):\(port)"
        } else {
            var v6 = sockaddr_in6()
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &v6.sin6_addr) { $0.copyBytes(from: address.bytes) }
            storage = .v6(v6)
            authority = "[\(address)]:\(port)"
        }
    }

    var family: Int32 {
        switch storage {
        case .v4: AF_INET
        case .v6: AF_INET6
        }
    }

    /// `connect(2)` of `descriptor` to the address.
    func connectSocket(_ descriptor: Int32) -> Int32 {
        switch storage {
        case .v4(var address):
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .v6(var address):
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
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
