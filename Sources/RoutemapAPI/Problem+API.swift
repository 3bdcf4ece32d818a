import RoutemapHTTP
import RoutemapJSON

// The API's own problems (the HTTP layer has 404, 405, 413, 415 and 500). Each `code` is
// stable: clients branch on it, so never rename one.

extension Problem {
    /// 400 `malformed_json`: the body is not JSON at all.
    static func malformedJSON(_ detail: String) -> Problem {
        Problem(status: .badRequest, code: "malformed_json", title: "Malformed JSON", detail: detail)
    }

    /// 400 `invalid_field`: a member is unknown, missing, of the wrong type or out of range.
    static func invalidField(_ field: String, _ detail: String) -> Problem {
        Problem(
            status: .badRequest, code: "invalid_field", title: "Invalid field", detail: detail,
            extensions: ["field": .string(field)])
    }

    /// 400 `invalid_field` for a body that is not a JSON object.
    static func bodyNotAnObject(_ found: JSON) -> Problem {
        Problem(
            status: .badRequest, code: "invalid_field", title: "Invalid field",
            detail: "The request body must be a JSON object, not \(found.kindName).")
    }

    /// 404 `not_found` for a resource the path names.
    static func notFound(_ what: String, _ id: String) -> Problem {
        Problem.notFound(detail: "No \(what) with id '\(id)'.")
    }

    /// 503 `unavailable`: the database does not answer.
    static func unavailable(_ detail: String) -> Problem {
        Problem(status: .serviceUnavailable, code: "unavailable", title: "Service unavailable", detail: detail)
    }
}
