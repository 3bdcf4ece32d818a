import RoutemapJSON

/// One HTTP response as `TestHTTPClient` read it off the wire.
public struct TestResponse: Sendable, CustomStringConvertible {
    public let status: Int
    public let reason: String
    /// Header fields in the order received.
    public let headers: [(name: String, value: String)]
    /// The body, de-chunked; empty for `HEAD`, 1xx, 204 and 304.
    public let body: [UInt8]

    public init(status: Int, reason: String, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    /// The first value of the header field `name` (case-insensitive), or `nil`.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of the header field `name` (case-insensitive), in order.
    public func headerValues(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The body as UTF-8 text (invalid bytes replaced).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as JSON, or `.null` when it is not JSON (use `parsedJSON()` to see why).
    public var json: JSON { (try? JSON.parse(body)) ?? .null }

    /// The body parsed as JSON; throws the parse error.
    public func parsedJSON() throws -> JSON { try JSON.parse(body) }

    public var description: String {
        "HTTP \(status) \(reason)\n" + headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + "\n\n" + text
    }
}
