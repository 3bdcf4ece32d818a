import RoutemapAPI
import RoutemapDomain
import RoutemapHTTP
import RoutemapJSON

// Reading modifiers from request bodies, strictly: wrong types and unknown members are 400
// `invalid_field` naming the member by its path (`modifierGroups[0].options[1].priceMinor`); the
// rules of their values are the domain's (`ModifierGroup.checked`, `MenuItem.chosenModifiers`).
extension RequestBody {
    /// `modifierGroups`: `nil` when absent or `null`.
    func modifierGroups() throws -> [ModifierGroup]? {
        guard let value = value("modifierGroups") else { return nil }
        let groups = try Self.array(value, "modifierGroups", max: ModifierGroup.maxGroups, of: "groups")
        return try groups.enumerated().map { index, group in
            let field = "modifierGroups[\(index)]"
            let object = try Self.object(group, field, allowed: ["id", "name", "minChoices", "maxChoices", "options"])
            let options = try Self.array(try Self.member(object, "options", field), "\(field).options", max: ModifierGroup.maxOptions, of: "options")
            return ModifierGroup(
                id: try Self.string(object, "id", field), name: try Self.string(object, "name", field),
                minChoices: try Self.count(object, "minChoices", field), maxChoices: try Self.count(object, "maxChoices", field),
                options: try options.enumerated().map { optionIndex, option in
                    let optionField = "\(field).options[\(optionIndex)]"
                    let object = try Self.object(option, optionField, allowed: ["id", "name", "priceMinor"])
                    guard let price = Self.integer(try Self.member(object, "priceMinor", optionField)) else {
                        throw Problem.invalidField("\(optionField).priceMinor", "'\(optionField).priceMinor' must be an integer.")
                    }
                    return ModifierOption(id: try Self.string(object, "id", optionField), name: try Self.string(object, "name", optionField), priceMinor: price)
                })
        }
    }

    /// `modifiers` of an add: option ids, `nil` when absent or `null` (an add from the menu's
    /// one tap), else an array of at most ``MenuItem/maxChosenModifiers`` strings of 1 to 64
    /// characters (as JSON Schema's `maxLength` counts them; any such string that names no option
    /// is the domain's `unknown_modifier`).
    func modifierIds() throws -> [String]? {
        guard let value = value("modifiers") else { return nil }
        return try Self.array(value, "modifiers", max: MenuItem.maxChosenModifiers, of: "option ids").map { id in
            guard case .string(let text) = id, (1...64).contains(text.unicodeScalars.count) else {
                throw Problem.invalidField("modifiers", "'modifiers' must hold option ids: strings of 1 to 64 characters.")
            }
            return text
        }
    }

    private static func array(_ value: JSON, _ field: String, max: Int, of what: String) throws -> [JSON] {
        guard case .array(let array) = value else { throw Problem.invalidField(field, "'\(field)' must be an array, not \(value.kindName).") }
        guard array.count <= max else { throw Problem.invalidField(field, "'\(field)' must hold at most \(max) \(what).") }
        return array
    }

    private static func object(_ value: JSON, _ field: String, allowed: Set<String>) throws -> JSONObject {
        guard case .object(let object) = value else { throw Problem.invalidField(field, "'\(field)' must be an object, not \(value.kindName).") }
        if let unknown = object.keys.first(where: { !allowed.contains($0) }) {
            throw Problem.invalidField("\(field).\(unknown)", "Unknown member '\(unknown)' in '\(field)'. Allowed: \(allowed.sorted().joined(separator: ", ")).")
        }
        return object
    }

    private static func member(_ object: JSONObject, _ name: String, _ field: String) throws -> JSON {
        guard let value = object[name], !value.isNull else { throw Problem.invalidField("\(field).\(name)", "'\(field).\(name)' is required.") }
        return value
    }

    private static func string(_ object: JSONObject, _ name: String, _ field: String) throws -> String {
        guard case .string(let text) = try member(object, name, field) else {
            throw Problem.invalidField("\(field).\(name)", "'\(field).\(name)' must be a string.")
        }
        return text
    }

    /// A choice count: an integer from 0 to the most options a group has.
    private static func count(_ object: JSONObject, _ name: String, _ field: String) throws -> Int {
        guard let count = integer(try member(object, name, field)), (0...Int64(ModifierGroup.maxOptions)).contains(count) else {
            throw Problem.invalidField("\(field).\(name)", "'\(field).\(name)' must be an integer from 0 to \(ModifierGroup.maxOptions).")
        }
        return Int(count)
    }
}
