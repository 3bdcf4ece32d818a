import RoutemapDomain
import RoutemapJSON

// The wire shapes of modifiers (openapi.yaml's ModifierGroup, ModifierOption, LineModifier).

extension ModifierGroup {
    var json: JSON {
        [
            "id": .string(id), "name": .string(name), "minChoices": .int(Int64(minChoices)), "maxChoices": .int(Int64(maxChoices)),
            "options": .array(options.map(\.json)),
        ]
    }
}

extension ModifierOption {
    var json: JSON { ["id": .string(id), "name": .string(name), "priceMinor": .int(priceMinor)] }
}

extension BillLineModifier {
    var json: JSON { ["optionId": .string(optionId), "name": .string(name), "priceMinor": .int(priceMinor)] }
}
