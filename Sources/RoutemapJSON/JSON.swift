/// A JSON value.
///
/// routemap parses request bodies into `JSON` (strictly: see `JSON.parse`) and builds every
/// response body from it. Objects keep their members in insertion order, so the same value
/// always encodes to the same bytes (stable `ETag`s, readable responses).
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in `Int64`.
    case int(Int64)
    /// Any other number.
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)
    /// Already-encoded JSON spliced in verbatim when writing: lets a payload that rarely changes
    /// (the menu) be encoded once and reused inside many responses.
    indirect case fragment(JSONFragment)
}

extension JSON {
    /// The member `key` of an object, or `nil` for a missing member or a non-object.
    public subscript(key: String) -> JSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var int64Value: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// A short name of the value's kind, for error messages ("expected a string, got an array").
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        case .fragment: return "a JSON fragment"
        }
    }
}
