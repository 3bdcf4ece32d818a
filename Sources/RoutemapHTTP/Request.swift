/// One HTTP request as a handler sees it: fully read, body included (at most the server's
/// `maxBodyBytes`).
public struct Request: Sendable {
    public var method: HTTPMethod
    /// The path without the query, percent-decoded (except `%00`, kept as is so a NUL cannot
    /// cut the path short). `%2F` decodes to `/` before routing, as libmicrohttpd gives no
    /// raw path: ids containing `/` cannot be routed.
    public var path: String
    /// The query's arguments, percent-decoded (`+` as space, `%00` kept); for a repeated
    /// name the first value wins.
    public var query: [String: String]
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// Values the router captured from `{name}` segments of the matched pattern.
    public var parameters: [String: String]
    /// The id the server gave the request (see `RequestRecord.id`), for log lines about it;
    /// `nil` for requests made in process.
    public var requestId: String?
    /// The peer's numeric IP address (IPv4-mapped IPv6 shown as IPv4), when known. Written out
    /// when read, from the address the server keeps as bytes.
    public var remoteAddress: String? {
        get { remoteAddressText ?? peer?.text }
        set {
            remoteAddressText = newValue
            peer = nil
        }
    }
    /// `remoteAddress` as given to `init` or set; else it comes from `peer`.
    private var remoteAddressText: String?
    /// The peer's address as the server read it, not yet written out.
    private(set) var peer: PeerAddress?

    public init(
        method: HTTPMethod, path: String, query: [String: String] = [:], headers: HTTPHeaders = [:],
        body: [UInt8] = [], parameters: [String: String] = [:], remoteAddress: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.parameters = parameters
        self.remoteAddressText = remoteAddress
    }

    /// A request read by the server from `peer`.
    init(method: HTTPMethod, path: String, query: [String: String], headers: HTTPHeaders, peer: PeerAddress?, requestId: String?) {
        self.init(method: method, path: path, query: query, headers: headers)
        self.peer = peer
        self.requestId = requestId
    }
}
