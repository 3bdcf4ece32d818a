import RoutemapJSON

/// What a handler answers: status, header fields and body bytes. The server adds `Date` and
/// `Content-Length`, and drops the body for `HEAD`.
public struct Response: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `value` encoded as the body, with `Content-Type: application/json`.
    public static func json(_ value: JSON, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> Response {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        return Response(status: status, headers: headers, body: value.encoded())
    }
}
