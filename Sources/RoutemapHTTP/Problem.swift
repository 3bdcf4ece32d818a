import RoutemapJSON

/// An error a client receives as RFC 9457 problem details (`application/problem+json`).
/// Handlers throw it; the router turns it into the response. `code` is the stable,
/// machine-readable name clients branch on, so never rename one.
public struct Problem: Error, Sendable, CustomStringConvertible {
    public var status: HTTPStatus
    /// snake_case, e.g. `not_found`.
    public var code: String
    public var title: String
    /// A human-readable explanation of this occurrence.
    public var detail: String
    /// A URI naming the kind of problem. When `nil`, the router that answers fills in its own
    /// namespace plus `code` (`Router.problemTypeNamespace`), or RFC 9457's `about:blank`.
    public var type: String?
    /// Extra response header fields (`Allow`, `Retry-After`, `WWW-Authenticate`...).
    public var headers: HTTPHeaders
    /// Extra members, written after the standard ones (which they cannot replace).
    public var extensions: JSONObject

    public init(
        status: HTTPStatus, code: String, title: String, detail: String, type: String? = nil,
        headers: HTTPHeaders = [:], extensions: JSONObject = [:]
    ) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.type = type
        self.headers = headers
        self.extensions = extensions
    }

    /// The body: `type`, `title`, `status`, `detail`, `code`, then the extensions.
    public var json: JSON {
        var object: JSONObject = [
            "type": .string(type ?? "about:blank"),
            "title": .string(title),
            "status": .int(Int64(status.code)),
            "detail": .string(detail),
            "code": .string(code),
        ]
        for (key, value) in extensions where object[key] == nil {
            object[key] = value
        }
        return .object(object)
    }

    public var description: String { "\(status.code) \(code): \(detail)" }
}
