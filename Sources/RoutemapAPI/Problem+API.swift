import RoutemapHTTP
import RoutemapJSON

// The API's own problems (the HTTP layer has 400, 404, 405, 413, 414, 415, 500 and the 503s
// `overloaded`, `timed_out` and `shutting_down`). Each `code` is
// stable: clients branch on it, so never rename one.

extension Problem {
    /// The namespace of routemap's problem types: `urn:routemap:problem:<code>`.
    package static let routemapNamespace = "urn:routemap:problem:"

    /// The problem as its answer, with routemap's problem type (as the router answers it),
    /// for answers built outside the router (recorded under an idempotency key).
    package var response: Response {
        var problem = self
        if problem.type == nil { problem.type = Problem.routemapNamespace + code }
        return Response(problem)
    }

    /// 400 `malformed_json`: the body is not JSON at all.
    package static func malformedJSON(_ detail: String) -> Problem {
        Problem(status: .badRequest, code: "malformed_json", title: "Malformed JSON", detail: detail)
    }

    /// 400 `invalid_field`: a member is unknown, missing, of the wrong type or out of range.
    package static func invalidField(_ field: String, _ detail: String) -> Problem {
        Problem(
            status: .badRequest, code: "invalid_field", title: "Invalid field", detail: detail,
            extensions: ["field": .string(field)])
    }

    /// 400 `invalid_field` for a body that is not a JSON object.
    package static func bodyNotAnObject(_ found: JSON) -> Problem {
        Problem(
            status: .badRequest, code: "invalid_field", title: "Invalid field",
            detail: "The request body must be a JSON object, not \(found.kindName).")
    }

    /// 404 `not_found` for a resource the path names; the id echoed is cut to 64 characters, as
    /// every echoed value is (a path may hold kilobytes).
    package static func notFound(_ what: String, _ id: String) -> Problem {
        Problem.notFound(detail: "No \(what) with id '\(id.prefix(64))'.")
    }

    /// 503 `unavailable`: the database does not answer.
    package static func unavailable(_ detail: String, retryAfter seconds: Int = 1) -> Problem {
        Problem(
            status: .serviceUnavailable, code: "unavailable", title: "Service unavailable", detail: detail,
            headers: ["Retry-After": String(seconds)])
    }

    /// 401 `unauthorized`, with the `WWW-Authenticate` challenge RFC 6750 asks for.
    package static func unauthorized(_ detail: String, invalidToken: Bool = false) -> Problem {
        let challenge = invalidToken ? #"Bearer realm="routemap", error="invalid_token""# : #"Bearer realm="routemap""#
        return Problem(
            status: .unauthorized, code: "unauthorized", title: "Unauthorized", detail: detail,
            headers: ["WWW-Authenticate": challenge])
    }

    /// 429 `too_many_requests`, saying when to try again.
    package static func tooManyRequests(_ detail: String, retryAfter seconds: Int) -> Problem {
        Problem(
            status: .tooManyRequests, code: "too_many_requests", title: "Too many requests", detail: detail,
            headers: ["Retry-After": String(seconds)], extensions: ["retryAfterSeconds": .int(Int64(seconds))])
    }
}
