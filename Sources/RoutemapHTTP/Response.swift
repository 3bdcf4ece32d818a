import RoutemapJSON

/// What a handler answers: status, header fields and body bytes. The server adds `Date` and
/// `Content-Length`, and drops the body for `HEAD` and `304` (whose `Content-Length` is then
/// the length of the body given: see ``notModified(_:headers:)``).
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
        self.init(status: prepared.status, headers: prepared.headers, lending: prepared)
    }

    /// `status` and `headers` with `prepared`'s body, lent as it is (the server takes the status
    /// and header fields from the response, the body from `prepared`).
    private init(status: HTTPStatus, headers: HTTPHeaders, lending prepared: PreparedResponse) {
        self.status = status
        self.headers = headers
        self.body = prepared.body
        self.prepared = prepared
    }

    /// `304 Not Modified` for a request whose `If-None-Match` matched `representation` (the
    /// prepared `200`), with `headers`: the validator and caching fields the `200` carries.
    ///
    /// No body is sent, but `Content-Length` is the representation's: RFC 9110 §8.6 allows a
    /// 304 no other value there, and libmicrohttpd sends the length of the body it is given
    /// (an empty body would claim `Content-Length: 0`). The body is lent, not copied.
    public static func notModified(_ representation: PreparedResponse, headers: HTTPHeaders) -> Response {
        Response(status: .notModified, headers: headers, lending: representation)
    }

    /// `value` encoded as the body, with `Content-Type: application/json`.
    public static func json(_ value: JSON, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> Response {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        return Response(status: status, headers: headers, body: value.encoded())
    }
}
