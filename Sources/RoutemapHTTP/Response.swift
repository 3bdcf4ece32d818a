import RoutemapJSON

/// What a handler answers: status, header fields and body bytes. The server adds `Date` and
/// `Content-Length`, and drops the body for `HEAD`.
///
/// A response taken from a `PreparedResponse` (an answer that never changes, handed to
/// libmicrohttpd once) is sent without copying anything, as long as it stays as it was:
/// changing its status, headers or body makes it an ordinary response again.
public struct Response: Sendable {
    public var status: HTTPStatus {
        didSet { prepared = nil }
    }
    public var headers: HTTPHeaders {
        didSet { prepared = nil }
    }
    public var body: [UInt8] {
        didSet { prepared = nil }
    }
    /// libmicrohttpd's own copy of exactly this status, these headers and this body, or `nil`.
    /// Cleared by any change above (a property observer, so in-place changes count too).
    private(set) var prepared: PreparedResponse?

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.prepared = nil
    }

    /// The response `prepared` answers, sent through it while unchanged.
    init(_ prepared: PreparedResponse) {
        self.status = prepared.status
        self.headers = prepared.headers
        self.body = prepared.body
        self.prepared = prepared
    }

    /// `value` encoded as the body, with `Content-Type: application/json`.
    public static func json(_ value: JSON, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> Response {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        return Response(status: status, headers: headers, body: value.encoded())
    }
}
