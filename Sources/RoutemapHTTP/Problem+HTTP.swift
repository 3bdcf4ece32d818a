// The problems the HTTP layer answers by itself.
extension Problem {
    /// 400 `bad_request`: the request itself is unreadable (e.g. its path is not UTF-8).
    public static func badRequest(detail: String) -> Problem {
        Problem(status: .badRequest, code: "bad_request", title: "Bad request", detail: detail)
    }

    /// 404 `not_found`: nothing at this path (or no such resource).
    public static func notFound(detail: String) -> Problem {
        Problem(status: .notFound, code: "not_found", title: "Not found", detail: detail)
    }

    /// 405 `method_not_allowed`, with `Allow` listing `allowed` (sorted, comma-separated).
    public static func methodNotAllowed(allowed: [HTTPMethod]) -> Problem {
        let list = Set(allowed).map(\.rawValue).sorted().joined(separator: ", ")
        return Problem(
            status: .methodNotAllowed, code: "method_not_allowed", title: "Method not allowed",
            detail: "This resource supports only: \(list).", headers: ["Allow": list])
    }

    /// 413 `payload_too_large`: the body is over `limit` bytes.
    public static func payloadTooLarge(limit: Int) -> Problem {
        Problem(
            status: .payloadTooLarge, code: "payload_too_large", title: "Payload too large",
            detail: "The request body is larger than \(limit) bytes.", extensions: ["limit": .int(Int64(limit))])
    }

    /// 414 `uri_too_long`: a request target with a query that, with its arguments, needs more
    /// memory than a connection has to parse it.
    public static func uriTooLong(bytes: Int, arguments: Int) -> Problem {
        Problem(
            status: .uriTooLong, code: "uri_too_long", title: "URI too long",
            detail: "The request target (\(bytes) bytes, \(arguments) query argument\(arguments == 1 ? "" : "s")) is more than the server parses in one request.")
    }

    /// 415 `unsupported_media_type`: a body of a type the router does not accept.
    public static func unsupportedMediaType(received contentType: String?) -> Problem {
        let what = contentType.map { "'\($0.prefix(100))'" } ?? "a body without Content-Type"
        return Problem(
            status: .unsupportedMediaType, code: "unsupported_media_type", title: "Unsupported media type",
            detail: "This endpoint does not accept a body of that type; got \(what).")
    }

    /// 503 `overloaded`: the server has as many requests waiting as it allows; `Retry-After`
    /// says when to try again.
    public static func overloaded(retryAfter seconds: Int) -> Problem {
        Problem(
            status: .serviceUnavailable, code: "overloaded", title: "Overloaded",
            detail: "The server has too many requests in progress; retry later.", headers: ["Retry-After": String(seconds)])
    }

    /// 503 `timed_out`: the answer took longer than the server waits. The work may still
    /// complete, so a client repeats only a request that is safe to repeat.
    public static func timedOut(after seconds: Int) -> Problem {
        Problem(
            status: .serviceUnavailable, code: "timed_out", title: "Timed out",
            detail: "The request took longer than \(seconds) s to answer; it may still complete.", headers: ["Retry-After": "1"])
    }

    /// 503 `shutting_down`: the server is stopping and will not finish this request.
    public static func shuttingDown() -> Problem {
        Problem(
            status: .serviceUnavailable, code: "shutting_down", title: "Shutting down",
            detail: "The server is stopping; retry on another instance or after it restarts.", headers: ["Retry-After": "1"])
    }

    /// 500 `internal_error`. Says nothing about the cause: that goes to the log only.
    public static func internalError() -> Problem {
        Problem(
            status: .internalServerError, code: "internal_error", title: "Internal server error",
            detail: "The server could not complete the request.")
    }
}
