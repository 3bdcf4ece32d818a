import Foundation

/// A screen action with its placeholders filled (README, "Screen actions"): the request one
/// control sends for one user intent. Make it once per tap and send the same value again to
/// retry that tap: its `{idempotencyKey}` stays the same.
///
/// | placeholder | value |
/// |---|---|
/// | `{NAME}` | a navigation input from `inputs` of the screens on display, most recently shown first |
/// | `{item.FIELD}` | a field of the tapped row (of the payload list the action's `row` names) |
/// | `{value.NAME}` | a value the user entered |
/// | `{payload.FIELD}` | a field of the action's own screen's payload |
/// | `{idempotencyKey}` | the intent's key |
///
/// In `path` a placeholder becomes its text, percent-encoded; a path placeholder with no value
/// is an error. In `body` a string that is exactly one placeholder becomes the value with its
/// JSON type, other strings get the values' text, and a member (or array element) whose
/// placeholder has no value is left out. A header whose placeholder has no value is left out.
///
/// A walk (`POST` to the app's `navigate`) keeps the template's `from` here;
/// `NavigationSession.perform(_:)` replaces it with the session's stack when it sends it.
public struct ActionRequest: Sendable, Hashable {
    /// The action's name (`pay`).
    public var name: String
    public var method: HTTPMethod
    /// The filled path, percent-encoded.
    public var path: String
    public var body: JSONValue?
    public var headers: [String: String]
    public var intent: UserIntent
    /// The route of the screen whose control sends it (set by `NavigationSession.prepare`); nil
    /// when not known. `NavigationSession.perform(_:)` gives that screen the focus before it
    /// sends a walk (`POST …/navigate`) from it.
    public var route: RouteID?

    /// Where placeholders take their values from.
    public struct Values: Sendable {
        /// `inputs` of the screens on display, the most recently shown first.
        public var inputs: [[String: String]]
        /// The tapped row, for `{item.FIELD}`.
        public var item: JSONValue?
        /// What the user entered, for `{value.NAME}`.
        public var entered: [String: JSONValue]
        /// The action's own screen's payload, for `{payload.FIELD}`.
        public var payload: JSONValue

        public init(inputs: [[String: String]] = [], item: JSONValue? = nil, entered: [String: JSONValue] = [:], payload: JSONValue = [:]) {
            self.inputs = inputs
            self.item = item
            self.entered = entered
            self.payload = payload
        }
    }

    /// A placeholder in `path` has no value: the request cannot be made.
    public struct MissingValue: Error, Sendable, Equatable {
        public var action: String
        public var placeholder: String
    }

    /// Fills `action` from `values`, with `intent`'s key for `{idempotencyKey}`; `route` is the
    /// route of the screen that offers it, when known.
    public init(action: ScreenAction, values: Values, intent: UserIntent = UserIntent(), route: RouteID? = nil) throws {
        let filler = PlaceholderFiller(values: values, idempotencyKey: intent.idempotencyKey)
        name = action.name
        method = action.method
        path = try filler.fillPath(action.path) { MissingValue(action: action.name, placeholder: $0) }
        body = action.body.flatMap(filler.fillBody)
        var headers: [String: String] = [:]
        for (field, template) in action.headers ?? [:] {
            if let value = filler.fillText(template) { headers[field] = value }
        }
        self.headers = headers
        self.intent = intent
        self.route = route
    }
}

/// The placeholder rules of `ActionRequest`, over one set of values.
struct PlaceholderFiller {
    let values: ActionRequest.Values
    let idempotencyKey: String

    /// The value of the placeholder named `name` (the text between the braces), or nil.
    func value(of name: String) -> JSONValue? {
        let value: JSONValue?
        if name == "idempotencyKey" {
            value = .string(idempotencyKey)
        } else if let field = name.dropPrefix("item.") {
            value = values.item.flatMap { Self.field(field, of: $0) }
        } else if let field = name.dropPrefix("value.") {
            value = Self.field(field, of: .object(values.entered))
        } else if let field = name.dropPrefix("payload.") {
            value = Self.field(field, of: values.payload)
        } else {
            value = values.inputs.lazy.compactMap { $0[name] }.first.map(JSONValue.string)
        }
        return value == .null ? nil : value
    }

    /// `a.b` inside nested objects.
    private static func field(_ path: Substring, of value: JSONValue) -> JSONValue? {
        var current: JSONValue? = value
        for name in path.split(separator: ".", omittingEmptySubsequences: false) { current = current?[String(name)] }
        return current
    }

    /// The path with each placeholder's text percent-encoded.
    func fillPath(_ template: String, missing: (String) -> some Error) throws -> String {
        var result = ""
        for part in Placeholders.parse(template) {
            switch part {
            case .literal(let text): result += text
            case .placeholder(let name):
                guard let text = value(of: name)?.text else { throw missing(name) }
                result += APIClient.segment(text)
            }
        }
        return result
    }

    /// The text with each placeholder's text, or nil when one has no value.
    func fillText(_ template: String) -> String? {
        var result = ""
        for part in Placeholders.parse(template) {
            switch part {
            case .literal(let text): result += text
            case .placeholder(let name):
                guard let text = value(of: name)?.text else { return nil }
                result += text
            }
        }
        return result
    }

    /// The body template filled: nil when it has no value (its member is then left out).
    func fillBody(_ template: JSONValue) -> JSONValue? {
        switch template {
        case .string(let text):
            let parts = Placeholders.parse(text)
            if parts.count == 1, case .placeholder(let name) = parts[0] { return value(of: name) }
            return fillText(text).map(JSONValue.string)
        case .array(let elements):
            return .array(elements.compactMap(fillBody))
        case .object(let members):
            return .object(members.compactMapValues(fillBody))
        case .null, .bool, .int, .double:
            return template
        }
    }
}

/// Splits a template into literal text and `{name}` placeholders. A name is one or more
/// letters, digits, `_`, `-` or `.`; braces around anything else are literal text.
enum Placeholders {
    enum Part: Equatable {
        case literal(String)
        case placeholder(String)
    }

    static func parse(_ template: String) -> [Part] {
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"), afterOpen < close, rest[afterOpen..<close].allSatisfy(isNameCharacter) {
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.placeholder(String(rest[afterOpen..<close])))
                rest = rest[rest.index(after: close)...]
            } else {
                literal += "{"
                rest = rest[afterOpen...]
            }
        }
        literal += rest
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return parts
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "_-.".contains(character))
    }
}

extension String {
    fileprivate func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}
