/// Why `TestHTTPClient` could not complete an exchange.
public enum TestHTTPClientError: Error, CustomStringConvertible {
    case connectFailed(host: String, port: Int, errno: Int32)
    case sendFailed(errno: Int32)
    case receiveFailed(errno: Int32)
    /// Nothing (more) arrived within the timeout.
    case timedOut(received: [UInt8])
    /// The server closed the connection before a whole response arrived.
    case closedByPeer(received: [UInt8])
    case malformedResponse(String)
    case notConnected

    public var description: String {
        switch self {
        case .connectFailed(let host, let port, let code): return "connect to \(host):\(port) failed: errno \(code)"
        case .sendFailed(let code): return "send failed: errno \(code)"
        case .receiveFailed(let code): return "receive failed: errno \(code)"
        case .timedOut(let received): return "timed out; received \(received.count) bytes: \(Self.preview(received))"
        case .closedByPeer(let received):
            return "connection closed by the server; received \(received.count) bytes: \(Self.preview(received))"
        case .malformedResponse(let why): return "malformed response: \(why)"
        case .notConnected: return "not connected"
        }
    }

    private static func preview(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription
    }
}
