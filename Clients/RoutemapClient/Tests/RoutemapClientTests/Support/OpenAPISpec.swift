import Foundation
import Yams

@testable import RoutemapClient

/// The server's openapi.yaml, read as JSON values, with what the spec test needs: schemas by
/// name, `$ref` resolution and sample instances built from a schema.
struct OpenAPISpec {
    let document: JSONValue

    /// The repository's openapi.yaml (two folders above this package), or `ROUTEMAP_OPENAPI`.
    static func load() throws -> OpenAPISpec {
        let path =
            ProcessInfo.processInfo.environment["ROUTEMAP_OPENAPI"]
            ?? PackageLocation.repositoryRoot.appendingPathComponent("openapi.yaml").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw TestSetupError("cannot read the OpenAPI document at \(path) (set ROUTEMAP_OPENAPI to its path)")
        }
        return OpenAPISpec(document: try convert(Yams.load(yaml: text) as Any))
    }

    var schemas: [String: JSONValue] { document["components"]?["schemas"]?.objectValue ?? [:] }

    func schema(_ name: String) throws -> JSONValue {
        guard let schema = schemas[name] else { throw TestSetupError("openapi.yaml has no schema \(name)") }
        return schema
    }

    /// The schema `#/components/schemas/Name` (or a part of it, `…/Name/properties/member`)
    /// names, or the schema itself.
    func resolve(_ schema: JSONValue) throws -> JSONValue {
        guard let ref = schema["$ref"]?.stringValue else { return schema }
        let prefix = "#/components/schemas/"
        guard ref.hasPrefix(prefix) else { throw TestSetupError("unsupported $ref \(ref)") }
        let path = ref.dropFirst(prefix.count).split(separator: "/").map(String.init)
        var target = try self.schema(path[0])
        for name in path.dropFirst() {
            guard let part = target[name] else { throw TestSetupError("$ref \(ref) names nothing") }
            target = part
        }
        return try resolve(target)
    }

    /// The JSON schema of an operation's first 2xx application/json answer.
    func successSchema(of operationId: String) throws -> JSONValue {
        for (_, item) in document["paths"]?.objectValue ?? [:] {
            for (_, operation) in item.objectValue ?? [:] where operation["operationId"]?.stringValue == operationId {
                let responses = operation["responses"]?.objectValue ?? [:]
                for status in responses.keys.sorted() where status.hasPrefix("2") {
                    if let schema = responses[status]?["content"]?["application/json"]?["schema"] { return schema }
                }
            }
        }
        throw TestSetupError("no JSON success answer for operation \(operationId)")
    }

    /// Every operation's id with its 2xx JSON answer schemas and request body schema.
    var operations: [(id: String, bodies: [JSONValue])] {
        var result: [(String, [JSONValue])] = []
        for (_, item) in document["paths"]?.objectValue ?? [:] {
            for (_, operation) in item.objectValue ?? [:] {
                guard let id = operation["operationId"]?.stringValue else { continue }
                var bodies: [JSONValue] = []
                for (status, response) in operation["responses"]?.objectValue ?? [:] where status.hasPrefix("2") {
                    if let schema = response["content"]?["application/json"]?["schema"] { bodies.append(schema) }
                }
                if let schema = operation["requestBody"]?["content"]?["application/json"]?["schema"] { bodies.append(schema) }
                result.append((id, bodies))
            }
        }
        return result
    }

    // MARK: Samples

    /// An instance of `schema`: with every member (`full`) or only the required ones. Values are
    /// the simplest the schema allows; recursion stops at `depth` with empty arrays.
    func sample(_ schema: JSONValue, full: Bool, depth: Int = 0) throws -> JSONValue {
        let schema = try resolve(schema)
        if let constant = schema["const"] { return constant }
        if let values = schema["enum"]?.arrayValue { return values.first { $0 != .null } ?? .null }
        if let alternatives = schema["oneOf"]?.arrayValue, let first = alternatives.first { return try sample(first, full: full, depth: depth) }
        if let parts = schema["allOf"]?.arrayValue, schema["properties"] != nil || parts.contains(where: { $0["$ref"] != nil }) {
            var members: [String: JSONValue] = [:]
            for part in parts {
                if case .object(let object) = try sample(part, full: full, depth: depth) { members.merge(object) { _, new in new } }
            }
            if case .object(let own) = try objectSample(schema, full: full, depth: depth) { members.merge(own) { _, new in new } }
            return .object(members)
        }
        switch Self.type(of: schema) {
        case "object": return try objectSample(schema, full: full, depth: depth)
        case "array":
            guard depth < 4, let items = schema["items"] else { return [] }
            return [try sample(items, full: full, depth: depth + 1)]
        case "integer": return .int(max(1, schema["minimum"]?.intValue ?? 1))
        case "number": return .double(1.5)
        case "boolean": return true
        case "null": return .null
        default: return .string(Self.stringSample(schema))
        }
    }

    private func objectSample(_ schema: JSONValue, full: Bool, depth: Int) throws -> JSONValue {
        let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        var members: [String: JSONValue] = [:]
        for (name, property) in schema["properties"]?.objectValue ?? [:] where full || required.contains(name) {
            members[name] = try sample(property, full: full, depth: depth + 1)
        }
        if full, let additional = schema["additionalProperties"], case .object = additional {
            members["extra"] = try sample(additional, full: full, depth: depth + 1)
        }
        return .object(members)
    }

    /// The schema's type; of `[T, 'null']`, T.
    static func type(of schema: JSONValue) -> String? {
        switch schema["type"] {
        case .string(let type)?: return type
        case .array(let types)?: return types.compactMap(\.stringValue).first { $0 != "null" }
        default: return schema["properties"] != nil ? "object" : nil
        }
    }

    private static func stringSample(_ schema: JSONValue) -> String {
        if schema["format"]?.stringValue == "date-time" { return "2026-01-02T03:04:05Z" }
        switch schema["pattern"]?.stringValue {
        case "^[A-Z]{3}$"?: return "USD"
        case let pattern? where pattern.contains("[0-9]+\\."): return "1.2.3"
        default: return "text"
        }
    }

    // MARK: Enumerations

    /// Every `enum` in `schema` (not following `$ref`s), by path: `Name.member`,
    /// `Name/alternative.member`, `Name.member[]` for an array's items.
    static func enumerations(in schema: JSONValue, path: String) -> [String: Set<String>] {
        var found: [String: Set<String>] = [:]
        if let values = schema["enum"]?.arrayValue {
            found[path] = Set(values.compactMap(\.stringValue))
        }
        for (name, property) in schema["properties"]?.objectValue ?? [:] {
            found.merge(enumerations(in: property, path: "\(path).\(name)")) { a, _ in a }
        }
        if let items = schema["items"] { found.merge(enumerations(in: items, path: "\(path)[]")) { a, _ in a } }
        for alternative in schema["oneOf"]?.arrayValue ?? [] {
            let title = alternative["title"]?.stringValue.map { "/\($0)" } ?? ""
            found.merge(enumerations(in: alternative, path: path + title)) { a, _ in a }
        }
        for part in schema["allOf"]?.arrayValue ?? [] {
            found.merge(enumerations(in: part, path: path)) { a, _ in a }
        }
        return found
    }

    // MARK: YAML to JSON

    private static func convert(_ value: Any) throws -> JSONValue {
        switch value {
        case let dictionary as [String: Any]: return .object(try dictionary.mapValues(convert))
        case let dictionary as [AnyHashable: Any]:
            return .object(Dictionary(uniqueKeysWithValues: try dictionary.map { ("\($0.key)", try convert($0.value)) }))
        case let array as [Any]: return .array(try array.map(convert))
        case let string as String: return .string(string)
        case let bool as Bool: return .bool(bool)
        case let int as Int: return .int(Int64(int))
        case let double as Double: return .double(double)
        case let date as Date: return .string(ISO8601DateFormatter().string(from: date))
        case is NSNull: return .null
        default:
            if case Optional<Any>.none = value { return .null }
            throw TestSetupError("unexpected YAML value \(value) (\(Swift.type(of: value)))")
        }
    }
}

struct TestSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Where this package and the repository around it are.
enum PackageLocation {
    /// `Clients/RoutemapClient`, found from this file's location.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The routemap repository (two folders above the package).
    static let repositoryRoot = packageRoot.deletingLastPathComponent().deletingLastPathComponent()
}
