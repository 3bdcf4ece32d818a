import Foundation
import RoutemapJSON

#if canImport(Glibc)
import Glibc
#endif

// The fuzzer's side of the socket: one-shot connections that half-close after sending (so the
// server sees the end of a broken request at once instead of waiting for more), and a lenient
// reader of whatever responses came back.

/// What came back on a connection the client closed for sending.
struct HalfClosedExchange {
    var received: [UInt8]
    /// The server closed the connection (else the client stopped waiting).
    var closedByServer: Bool
}

/// Sends `bytes` on a new connection to 127.0.0.1:`port`, then closes the sending side, and
/// returns what comes back until the server closes the connection; or, once whole responses
/// came and then nothing for `quietPeriod`, or when `timeout` passes, what came so far.
///
/// The sending side is closed a millisecond after the bytes, not with them: libmicrohttpd
/// 0.9.75 in epoll mode misses a FIN that arrives with the request's last bytes in about one
/// case in ten under load, and then keeps the connection until a timeout. (Measured with a
/// plain C server with the same flags too; `MHD_USE_POLL` doesn't miss it.)
func exchangeHalfClosed(
    _ bytes: [UInt8], port: Int, methods: [String], quietPeriod: Duration = .milliseconds(300), timeout: Duration
) throws -> HalfClosedExchange {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw FuzzWireError.socket(errno) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw FuzzWireError.connect(errno) }

    var offset = 0
    while offset < bytes.count {
        let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if sent < 0 {
            if errno == EINTR { continue }
            break  // the server closed early (e.g. after answering 413 or 431): read what it said
        }
        offset += sent
    }
    usleep(1_000)
    _ = shutdown(fd, Int32(SHUT_WR))

    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var quietUntil: ContinuousClock.Instant?
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let now = clock.now
        let until = min(deadline, quietUntil ?? deadline)
        if now >= until { return HalfClosedExchange(received: received, closedByServer: false) }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let left = now.duration(to: until)
        let ready = poll(&poller, 1, Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1))
        if ready <= 0 { continue }
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            received += chunk.prefix(count)
            let (responses, rest) = parseResponses(received, methods: methods)
            quietUntil = rest.isEmpty && responses.contains { $0.status >= 200 } ? clock.now + quietPeriod : nil
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            return HalfClosedExchange(received: received, closedByServer: true)
        }
    }
}

enum FuzzWireError: Error {
    case socket(Int32)
    case connect(Int32)
}

/// One response as read leniently off the wire.
struct WireResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// Reads the responses in `bytes` in order, using `Content-Length` to find each body (none
/// after `HEAD`, 1xx, 204 and 304). When what follows a response is not a status line (as
/// when libmicrohttpd 0.9.75 sends one error's head twice), the rest is searched for status
/// lines at line starts instead, so no answer goes unseen; those come back without headers.
func parseResponses(_ bytes: [UInt8], methods: [String]) -> (responses: [WireResponse], unparsed: [UInt8]) {
    var responses: [WireResponse] = []
    var position = 0
    let crlfcrlf: [UInt8] = [13, 10, 13, 10]
    while position < bytes.count {
        guard bytes[position...].starts(with: Array("HTTP/1.".utf8)),
            let headEnd = firstRange(of: crlfcrlf, in: bytes, from: position)
        else { break }
        let head = String(decoding: bytes[position..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { break }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = WireResponse(status: status, headers: headers, body: [])
        let bodyStart = headEnd + 4
        let finalIndex = responses.filter { !(100..<200).contains($0.status) }.count
        let method = finalIndex < methods.count ? methods[finalIndex] : "GET"
        var length = Int(response.header("Content-Length") ?? "0") ?? 0
        if method == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304 { length = 0 }
        let bodyEnd = min(bytes.count, bodyStart + max(0, length))
        response.body = Array(bytes[bodyStart..<bodyEnd])
        responses.append(response)
        position = bodyEnd
    }
    let rest = Array(bytes[position...])
    // Whatever could not be read in order: any status line at a line start still counts.
    var index = 0
    while index < rest.count {
        let atLineStart = index == 0 || (index >= 2 && rest[index - 2] == 13 && rest[index - 1] == 10)
        if atLineStart, rest[index...].starts(with: Array("HTTP/1.".utf8)), index + 12 <= rest.count,
            rest[index + 8] == UInt8(ascii: " "), let status = Int(String(decoding: rest[(index + 9)..<(index + 12)], as: UTF8.self))
        {
            responses.append(WireResponse(status: status, headers: [], body: []))
        }
        index += 1
    }
    return (responses, rest)
}

private func firstRange(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    var index = start
    while index + needle.count <= haystack.count {
        if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        index += 1
    }
    return nil
}

/// Why `response` breaks the rules, or `nil`. `fromLibrary` responses (no `Content-Type`:
/// libmicrohttpd answered a request it could not parse, before any handler) must be one of its
/// own refusals (400, 413, 414, 431) or its 505 to a request line naming an HTTP version other
/// than 1.x, an answer the protocol prescribes (RFC 9110 section 15.6.6) and our code never sees; answers that went
/// through routemap's pipeline must be problem+json when 4xx.
func ruleBroken(by response: WireResponse, method: String) -> String? {
    /// The 4xx libmicrohttpd 0.9.75 answers itself: a malformed request (400), an oversized
    /// chunk or upload it cannot take (413), a request line or head beyond its memory (414, 431).
    let libraryRefusals: Set<Int> = [400, 413, 414, 431]
    let status = response.status
    guard (100...599).contains(status) else { return "status \(status) out of range" }
    let contentType = response.header("Content-Type")
    if status >= 500 {
        // libmicrohttpd's own 505 carries no Content-Type (every answer of ours does); its body
        // is sometimes cut off by the close that follows, so the origin decides, not the text.
        if status == 505, contentType == nil { return nil }
        return "server error \(status): \(String(decoding: response.body.prefix(300), as: UTF8.self))"
    }
    guard (400..<500).contains(status) else { return nil }
    guard let contentType else {
        // Without Content-Type only libmicrohttpd's own refusals, which it sends before any
        // handler runs: a routemap 4xx that lost its Content-Type is a bug.
        return libraryRefusals.contains(status) ? nil : "\(status) without Content-Type (libmicrohttpd sends only \(libraryRefusals.sorted()))"
    }
    guard contentType == "application/problem+json" else {
        return "\(status) with Content-Type \(contentType), not application/problem+json"
    }
    if method == "HEAD" { return nil }
    guard case .object(let problem)? = try? JSON.parse(response.body) else {
        return "\(status) problem+json body is not a JSON object: \(String(decoding: response.body.prefix(300), as: UTF8.self))"
    }
    guard problem["status"] == .int(Int64(status)) else { return "problem status \(String(describing: problem["status"])) for \(status)" }
    for member in ["type", "title", "detail", "code"] {
        guard case .string(let text)? = problem[member], !text.isEmpty else { return "problem without '\(member)'" }
    }
    return nil
}
