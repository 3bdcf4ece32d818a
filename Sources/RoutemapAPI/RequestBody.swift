import RoutemapHTTP
import RoutemapJSON

/// A request's JSON object body, read strictly: members outside `allowed` are refused (no mass
/// assignment of prices, totals or statuses), and every accessor names the member it rejects.
package struct RequestBody {
    private let object: JSONObject

    /// Reads the body of `request`. An empty body counts as `{}` only when `emptyAllowed`.
    package init(_ request: Request, allowed: Set<String>, emptyAllowed: Bool = false) throws {
        if request.body.isEmpty {
            guard emptyAllowed else { throw Problem.malformedJSON("The request body is empty; a JSON object is required.") }
            object = JSONObject()
            return
        }
        let value: JSON
        do {
            value = try JSON.parse(request.body)
        } catch {
            throw Problem.malformedJSON("The request body is not valid JSON: \(error).")
        }
        guard case .object(let object) = value else { throw Problem.bodyNotAnObject(value) }
        if let unknown = object.keys.first(where: { !allowed.contains($0) }) {
            let known = allowed.isEmpty ? "This request takes no members." : "Allowed: \(allowed.sorted().joined(separator: ", "))."
            throw Problem.invalidField(unknown, "Unknown member '\(unknown)'. \(known)")
        }
        self.object = object
    }

    private init(object: JSONObject) {
        self.object = object
    }

    /// A required non-empty string member of at most `maxLength` characters, counted as JSON
    /// Schema's `maxLength` counts them (Unicode scalars, so an accent is one): an id or a code,
    /// which the spec bounds that way, so any string it allows reaches the handler.
    package func string(_ name: String, maxLength: Int = 200) throws -> String {
        let string = try anyString(name)
        guard !string.isEmpty, string.unicodeScalars.count <= maxLength else {
            throw Problem.invalidField(name, "'\(name)' must be 1 to \(maxLength) characters long.")
        }
        return string
    }

    /// A required member of text people write: 1 to `maxCharacters` characters (Unicode scalars,
    /// as JSON Schema's `maxLength` counts them, so an accent is one), without U+0000 (never
    /// text a person wrote, and PostgreSQL cannot store it).
    package func text(_ name: String, maxCharacters: Int) throws -> String {
        let text = try string(name, maxLength: maxCharacters)
        guard !text.unicodeScalars.contains("\u{0}") else { throw Problem.invalidField(name, "'\(name)' must not contain U+0000.") }
        return text
    }

    /// ``text(_:maxCharacters:)``, or `nil` when the member is absent or `null`.
    package func optionalText(_ name: String, maxCharacters: Int) throws -> String? {
        value(name) == nil ? nil : try text(name, maxCharacters: maxCharacters)
    }

    /// An optional string member that may be cleared: `nil` when absent, `""` when `null` (clear
    /// it, as an empty string does), else the string as sent. What the text may hold is the rule
    /// of the domain's type for it (`LineNote`, `BillLabel`: their `parse` trims it and refuses
    /// one too long or with U+0000, as `InvalidInput`, 400 too), checked there once.
    package func clearableString(_ name: String) throws -> String? {
        guard let value = object[name] else { return nil }
        if value.isNull { return "" }
        return try anyString(name)
    }

    /// The body with member `name` set to `value`: for a member whose `null` means something
    /// (``clearableString(_:)``), spelled as the value it means, so that both are one
    /// request to an idempotency key (``meaning`` drops `null`s, which would make it absent).
    package func with(_ name: String, _ value: JSON) -> RequestBody {
        var object = object
        object[name] = value
        return RequestBody(object: object)
    }

    /// A required integer member within `range`.
    package func integer(_ name: String, in range: ClosedRange<Int64>) throws -> Int64 {
        guard let value = try optionalInteger(name, in: range) else {
            throw Problem.invalidField(name, "'\(name)' is required.")
        }
        return value
    }

    /// An optional integer member within `range`; `null` counts as absent. A number written
    /// with a zero fraction or an exponent (`2.0`, `2e0`) is that integer, as JSON Schema's
    /// `integer` says, when it is exact (at most 2^53 in magnitude).
    package func optionalInteger(_ name: String, in range: ClosedRange<Int64>) throws -> Int64? {
        guard let value = object[name], !value.isNull else { return nil }
        guard let integer = Self.integer(value) else {
            throw Problem.invalidField(name, "'\(name)' must be an integer, not \(value.kindName == "a number" ? "a fraction or out-of-range number" : value.kindName).")
        }
        guard range.contains(integer) else {
            throw Problem.invalidField(name, "'\(name)' must be between \(range.lowerBound) and \(range.upperBound).")
        }
        return integer
    }

    /// `value` as an integer, by the rule of ``optionalInteger(_:in:)`` (an exact `2.0` is 2), or
    /// `nil`: for integers nested in a member.
    package static func integer(_ value: JSON) -> Int64? {
        switch value {
        case .int(let integer):
            return integer
        case .double(let double) where double.rounded() == double && abs(double) <= 9_007_199_254_740_992:
            return Int64(double)
        default:
            return nil
        }
    }

    /// An optional boolean member; `null` counts as absent.
    package func optionalBool(_ name: String) throws -> Bool? {
        guard let value = value(name) else { return nil }
        guard case .bool(let flag) = value else { throw Problem.invalidField(name, "'\(name)' must be true or false.") }
        return flag
    }

    /// A required string member naming one case of `T`.
    package func choice<T: RawRepresentable & CaseIterable>(_ name: String, of type: T.Type) throws -> T where T.RawValue == String {
        let raw = try string(name)
        guard let value = T(rawValue: raw) else {
            let cases = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw Problem.invalidField(name, "'\(name)' must be one of: \(cases).")
        }
        return value
    }

    /// A required string member, of any length.
    package func anyString(_ name: String) throws -> String {
        guard let value = object[name] else { throw Problem.invalidField(name, "'\(name)' is required.") }
        guard case .string(let string) = value else {
            throw Problem.invalidField(name, "'\(name)' must be a string, not \(value.kindName).")
        }
        return string
    }

    /// The whole body (`{}` for an allowed empty one).
    package var json: JSON { .object(object) }

    /// The body as it is read: without its `null` members, which count as absent. So
    /// `{"tenderedMinor": null}` and `{}` are one request to an idempotency key.
    package var meaning: JSON { .object(JSONObject(object.filter { !$0.value.isNull })) }

    /// The body without the member `name`, as if it were absent: for an endpoint that reads a
    /// member's value as absent (its default spelled out), so that both are one request to an
    /// idempotency key, as a `null` member is.
    package func without(_ name: String) -> RequestBody {
        RequestBody(object: JSONObject(object.filter { $0.key != name }))
    }

    /// Whether member `name` is in the body, `null` or not: for a member whose `null` means
    /// something other than its absence.
    package func has(_ name: String) -> Bool {
        object[name] != nil
    }

    /// Whether member `name` is in the body as `null`.
    package func isNull(_ name: String) -> Bool {
        object[name]?.isNull ?? false
    }

    /// The raw member, `nil` when absent or `null`, for members whose shape varies.
    package func value(_ name: String) -> JSON? {
        guard let value = object[name], !value.isNull else { return nil }
        return value
    }
}
