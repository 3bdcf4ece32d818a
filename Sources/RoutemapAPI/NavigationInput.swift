import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// Reads the navigation members clients send (`from`, `input`) strictly: any value outside
/// openapi.yaml's `RequestStack`, `RouteId` and `Inputs` schemas is `400 invalid_field` naming the
/// member. Lengths count characters (Unicode code points), as JSON Schema's `maxLength` does.
enum NavigationInput {
    /// Bounds on what a client may send: far above any real app, far below harm.
    static let maxStackDepth = 64
    static let maxInputs = 32
    static let maxRouteIDLength = 100
    static let maxInputNameLength = 100
    static let maxInputValueLength = 200

    /// A stack as a JSON array of entries: objects `{route, inputs?, sub?}` or strings
    /// (`"bill"`, `"sub:bill"`, no inputs known).
    static func stack(_ value: JSON, field: String) throws -> NavigationStack {
        guard case .array(let items) = value else {
            throw Problem.invalidField(field, "'\(field)' must be an array of stack entries, not \(value.kindName).")
        }
        guard (1...maxStackDepth).contains(items.count) else {
            throw Problem.invalidField(field, "'\(field)' must hold 1 to \(maxStackDepth) entries.")
        }
        return NavigationStack(try items.map { try entry($0, field: field) })
    }

    /// The older comma-separated form of `GET /v1/resolve`'s `from`: route ids, `sub:` allowed.
    static func commaSeparatedStack(_ text: String, field: String) throws -> NavigationStack {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= maxStackDepth, parts.allSatisfy(isEntryString) else {
            throw Problem.invalidField(field, "'\(field)' must be a JSON array of stack entries, or 1 to \(maxStackDepth) comma-separated route ids.")
        }
        return NavigationStack(parts.map(StackEntry.init(parsing:)))
    }

    /// A route id as a client sends it: 1 to 100 characters. (An id of no route is 404 later.)
    static func routeID(_ value: JSON, field: String) throws -> RouteID {
        guard case .string(let text) = value, (1...maxRouteIDLength).contains(text.unicodeScalars.count) else {
            throw Problem.invalidField(field, "'\(field)' must be a route id of 1 to \(maxRouteIDLength) characters.")
        }
        return RouteID(text)
    }

    /// Navigation inputs: an object of at most 32 members, each named like `billId` (a letter,
    /// then letters, digits or `_`; at most 100 characters) with a string of at most 200
    /// characters.
    static func inputs(_ value: JSON, field: String) throws -> RouteInputs {
        let rule =
            "'\(field)' must be an object of at most \(maxInputs) members named by a letter, then letters, digits or _ "
            + "(at most \(maxInputNameLength) characters), each a string of at most \(maxInputValueLength) characters."
        guard case .object(let object) = value, object.count <= maxInputs else { throw Problem.invalidField(field, rule) }
        var inputs: RouteInputs = [:]
        for (name, value) in object {
            guard isInputName(name), case .string(let string) = value, string.unicodeScalars.count <= maxInputValueLength else {
                throw Problem.invalidField(field, rule)
            }
            inputs[name] = string
        }
        return inputs
    }

    private static func entry(_ value: JSON, field: String) throws -> StackEntry {
        switch value {
        case .string(let text):
            guard isEntryString(text) else {
                throw Problem.invalidField(field, "A string entry of '\(field)' must be a route id (1 to \(maxRouteIDLength) characters), optionally after 'sub:'.")
            }
            return StackEntry(parsing: text)
        case .object(let object):
            if let unknown = object.keys.first(where: { !["route", "inputs", "sub"].contains($0) }) {
                throw Problem.invalidField(field, "Unknown member '\(unknown)' in an entry of '\(field)'. Allowed: inputs, route, sub.")
            }
            guard let route = object["route"] else { throw Problem.invalidField(field, "Every entry object of '\(field)' needs 'route'.") }
            let inputs = try object["inputs"].map { try self.inputs($0, field: field) } ?? [:]
            var sub = false
            if let value = object["sub"] {
                guard case .bool(let flag) = value else { throw Problem.invalidField(field, "'sub' in an entry of '\(field)' must be true or false.") }
                sub = flag
            }
            return StackEntry(try routeID(route, field: field), inputs: inputs, openedAsSub: sub)
        default:
            throw Problem.invalidField(field, "Every entry of '\(field)' must be an object {route, inputs, sub} or a route id, not \(value.kindName).")
        }
    }

    /// `bill` or `sub:bill`, the route id 1 to 100 characters.
    private static func isEntryString(_ text: String) -> Bool {
        let id = text.hasPrefix("sub:") ? text.dropFirst(4) : Substring(text)
        return (1...maxRouteIDLength).contains(id.unicodeScalars.count)
    }

    /// A letter, then letters, digits or `_`, at most 100 characters.
    private static func isInputName(_ name: String) -> Bool {
        let scalars = name.unicodeScalars
        guard let first = scalars.first, scalars.count <= maxInputNameLength, first.isASCIILetter else { return false }
        return scalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
