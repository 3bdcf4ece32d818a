#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RoutemapJSON

/// A small blocking HTTP/1.1 client over one TCP connection, for tests: sends requests on a
/// persistent (keep-alive) connection and parses the responses (`Content-Length`, chunked,
/// or read-to-close bodies), or sends arbitrary bytes and returns whatever comes back.
///
/// A connection the server closes without saying so fails the request in progress; the next
/// `request` then opens a new connection, as it does after a response carrying
/// `Connection: close`. `connectionsOpened` counts them, to prove keep-alive.
/// Not thread-safe: use one client per thread.
public final class TestHTTPClient {
    public let host: String
    public let port: Int
    /// How long a receive waits for data before failing with `timedOut`.
    public var timeout: Duration
    /// How many TCP connections this client opened so far (1 after `init`).
    public private(set) var connectionsOpened = 0
    /// Header fields sent with every `request` unless the request names them itself
    /// (e.g. `Authorization`).
    public var defaultHeaders: [(String, String)] = []

    private var descriptor: Int32 = -1
    private var buffer: [UInt8] = []

    /// The local IPv4 address connections are made from (`127.0.0.2`, say), or `nil` for any.
    public let source: String?

    /// Connects to `host` (numeric or resolvable) on `port`, from `source` when given.
    public init(host: String = "127.0.0.1", port: Int, timeout: Duration = .seconds(10), source: String? = nil) throws {
        self.source = source
        self.host = host
        self.port = port
        self.timeout = timeout
        try reconnect()
    }

    deinit { disconnect() }

    public var isConnected: Bool { descriptor >= 0 }

    /// Opens a new connection, closing the current one first.
    public func reconnect() throws {
        disconnect()
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0 else {
            throw TestHTTPClientError.connectFailed(host: host, port: port, errno: EINVAL)
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = 0
        var candidate = list
        while let info = candidate?.pointee {
            candidate = info.ai_next
            let fd = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
            guard fd >= 0 else {
                lastError = errno
                continue
            }
            if let source, info.ai_family == AF_INET {
                var local = sockaddr_in()
                local.sin_family = sa_family_t(AF_INET)
                _ = inet_pton(AF_INET, source, &local.sin_addr)
                let bound = withUnsafePointer(to: &local) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                guard bound == 0 else {
                    lastError = errno
                    close(fd)
                    continue
                }
            }
            if connect(fd, info.ai_addr, info.ai_addrlen) == 0 {
                var one: Int32 = 1
                _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                descriptor = fd
                buffer = []
                connectionsOpened += 1
                return
            }
            lastError = errno
            close(fd)
        }
        throw TestHTTPClientError.connectFailed(host: host, port: port, errno: lastError)
    }

    /// Closes the connection (if open).
    public func disconnect() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        buffer = []
    }

    // MARK: Raw bytes

    /// Sends `bytes` as they are.
    public func sendRaw(_ bytes: [UInt8]) throws {
        guard descriptor >= 0 else { throw TestHTTPClientError.notConnected }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw TestHTTPClientError.sendFailed(errno: errno)
            }
            offset += sent
        }
    }

    /// Sends `bytes` and returns everything that arrives until the server closes the
    /// connection or nothing more comes for `quietPeriod`. Never throws for what the server
    /// does (a reset just ends the reading); `closedByServer` tells whether it closed.
    public func exchangeRaw(_ bytes: [UInt8], quietPeriod: Duration = .seconds(1)) throws -> (bytes: [UInt8], closedByServer: Bool) {
        try sendRaw(bytes)
        var received = buffer
        buffer = []
        while true {
            switch readSome(waiting: quietPeriod) {
            case .data(let chunk): received += chunk
            case .closed, .failed:
                disconnect()
                return (received, true)
            case .timedOut:
                return (received, false)
            }
        }
    }

    // MARK: Requests

    /// Sends one request on the connection and reads its response. Adds `Host` and
    /// `Content-Length` unless given (no `Content-Length` when `Transfer-Encoding` is given:
    /// the body is then sent as it is, see `chunked(_:chunkSize:)`).
    public func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) throws -> TestResponse {
        if descriptor < 0 { try reconnect() }
        let headers = headers + defaultHeaders.filter { field in !headers.contains { $0.0.lowercased() == field.0.lowercased() } }
        func has(_ name: String) -> Bool { headers.contains { $0.0.lowercased() == name } }
        var head = "\(method) \(path) HTTP/1.1\r\n"
        if !has("host") { head += "Host: \(host):\(port)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !has("content-length"), !has("transfer-encoding") {
            if let body {
                head += "Content-Length: \(body.count)\r\n"
            } else if ["POST", "PUT", "PATCH"].contains(method) {
                head += "Content-Length: 0\r\n"
            }
        }
        head += "\r\n"
        try sendRaw(Array(head.utf8) + (body ?? []))
        return try readResponse(method: method)
    }

    /// `request` with `body` encoded as JSON and `Content-Type: application/json`.
    public func json(_ method: String, _ path: String, _ body: JSON, headers: [(String, String)] = []) throws -> TestResponse {
        try request(method, path, headers: [("Content-Type", "application/json")] + headers, body: body.encoded())
    }

    /// Reads the next response (skipping interim 1xx ones) to a request made with `method`.
    public func readResponse(method: String = "GET") throws -> TestResponse {
        while true {
            let statusLine = try readLine()
            let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
                throw TestHTTPClientError.malformedResponse("status line \(statusLine.debugDescription)")
            }
            let reason = parts.count > 2 ? String(parts[2]) : ""
            var headers: [(name: String, value: String)] = []
            while true {
                let line = try readLine()
                if line.isEmpty { break }
                guard let colon = line.firstIndex(of: ":") else {
                    throw TestHTTPClientError.malformedResponse("header line \(line.debugDescription)")
                }
                headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(" \t")))
            }
            if (100..<200).contains(status), status != 101 { continue }
            let response = TestResponse(status: status, reason: reason, headers: headers, body: [])
            let body = try readBody(of: response, method: method)
            let final = TestResponse(status: status, reason: reason, headers: headers, body: body)
            if final.header("Connection")?.lowercased().contains("close") == true { disconnect() }
            return final
        }
    }

    /// `body` in chunked transfer coding, `chunkSize` bytes per chunk, with the last chunk.
    public static func chunked(_ body: [UInt8], chunkSize: Int = 1024) -> [UInt8] {
        var out: [UInt8] = []
        var offset = 0
        while offset < body.count {
            let end = min(offset + chunkSize, body.count)
            out += Array((String(end - offset, radix: 16) + "\r\n").utf8) + body[offset..<end] + Array("\r\n".utf8)
            offset = end
        }
        return out + Array("0\r\n\r\n".utf8)
    }

    // MARK: Reading

    private func readBody(of response: TestResponse, method: String) throws -> [UInt8] {
        if method == "HEAD" || response.status == 204 || response.status == 304 { return [] }
        if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            var body: [UInt8] = []
            while true {
                let sizeLine = try readLine()
                let sizeText = sizeLine.split(separator: ";").first.map(String.init)?.trimmingCharacters(" ") ?? ""
                guard let size = Int(sizeText, radix: 16), size >= 0 else {
                    throw TestHTTPClientError.malformedResponse("chunk size \(sizeLine.debugDescription)")
                }
                if size == 0 {
                    while try !readLine().isEmpty {}  // trailers
                    return body
                }
                body += try readExactly(size)
                guard try readLine().isEmpty else { throw TestHTTPClientError.malformedResponse("chunk not followed by CRLF") }
            }
        }
        if let lengthText = response.header("Content-Length") {
            guard let length = Int(lengthText), length >= 0 else {
                throw TestHTTPClientError.malformedResponse("Content-Length \(lengthText.debugDescription)")
            }
            return try readExactly(length)
        }
        // No length: the body runs to the end of the connection.
        while true {
            switch readSome(waiting: timeout) {
            case .data(let chunk): buffer += chunk
            case .closed:
                let body = buffer
                disconnect()
                return body
            case .failed(let code): throw TestHTTPClientError.receiveFailed(errno: code)
            case .timedOut: throw TestHTTPClientError.timedOut(received: buffer)
            }
        }
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                buffer.removeSubrange(...newline)
                return String(decoding: line, as: UTF8.self)
            }
            guard buffer.count < 1 << 20 else { throw TestHTTPClientError.malformedResponse("line over 1 MiB") }
            try fill()
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count { try fill() }
        let bytes = Array(buffer.prefix(count))
        buffer.removeFirst(count)
        return bytes
    }

    /// Appends the next bytes from the socket to `buffer`, or throws.
    private func fill() throws {
        switch readSome(waiting: timeout) {
        case .data(let chunk): buffer += chunk
        case .closed:
            let received = buffer
            disconnect()
            throw TestHTTPClientError.closedByPeer(received: received)
        case .failed(let code):
            disconnect()
            throw TestHTTPClientError.receiveFailed(errno: code)
        case .timedOut: throw TestHTTPClientError.timedOut(received: buffer)
        }
    }

    private enum ReadResult {
        case data([UInt8])
        case closed
        case failed(Int32)
        case timedOut
    }

    private func readSome(waiting: Duration) -> ReadResult {
        guard descriptor >= 0 else { return .closed }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: waiting)
        while true {
            let left = clock.now.duration(to: deadline)
            if left <= .zero { return .timedOut }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return .failed(errno)
            }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { return .data(Array(chunk.prefix(count))) }
            if count == 0 { return .closed }
            if errno == EINTR || errno == EAGAIN { continue }
            return errno == ECONNRESET ? .closed : .failed(errno)
        }
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(_ characters: String) -> String {
        var view = self[...]
        while let first = view.first, characters.contains(first) { view = view.dropFirst() }
        while let last = view.last, characters.contains(last) { view = view.dropLast() }
        return String(view)
    }
}
