import RoutemapDomain
import RoutemapJSON

// The wire shapes of modifiers (openapi.yaml's ModifierGroup, ModifierOption, LineModifier).
// Absent when there are none: an item or line without modifiers encodes as before they existed.

extension ModifierGroup {
    var json: JSON {
        [
            "id": .string(id), "name": .string(name), "minChoices": .int(Int64(minChoices)), "maxChoices": .int(Int64(maxChoices)),
            "options": .array(options.map { ["id": .string($0.id), "name": .string($0.name), "priceMinor": .int($0.priceMinor)] }),
        ]
    }
}

extension MenuItem {
    /// `object` with `modifierGroups` when the item has any.
    func withModifierGroups(_ object: JSONObject) -> JSON {
        guard !modifierGroups.isEmpty else { return .object(object) }
        var object = object
        object.append("modifierGroups", .array(modifierGroups.map(\.json)))
        return .object(object)
    }
}

extension BillLine {
    /// `object` with `modifiers` (each option's id, name and price as added) when the line has any.
    func withModifiers(_ object: JSONObject) -> JSON {
        guard !modifiers.isEmpty else { return .object(object) }
        var object = object
        object.append(
            "modifiers", .array(modifiers.map { ["optionId": .string($0.optionId), "name": .string($0.name), "priceMinor": .int($0.priceMinor)] }))
        return .object(object)
    }
}
