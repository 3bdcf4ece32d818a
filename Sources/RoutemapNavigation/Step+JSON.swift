import RoutemapJSON

// The wire shapes of steps and screens. Each object is built in one piece, members in their wire
// order, with `JSONObject.append` for the optional ones: no key is searched for or hashed.

extension Step {
    /// The step as the client receives it; absent optional members are omitted.
    public var json: JSON {
        var object: JSONObject = ["op": .string(op.rawValue), "route": .string(route.rawValue), "animated": .bool(animated)]
        if sub { object.append("sub", true) }
        if let slot { object.append("slot", .string(slot)) }
        if let tabs { object.append("tabs", .array(tabs.map(\.json))) }
        if let presentation { object.append("presentation", presentation.json) }
        if let screen { object.append("screen", screen.json) }
        return .object(object)
    }
}

extension [Step] {
    /// The `navigation` array of a response.
    public var json: JSON { .array(map(\.json)) }
}

extension Tab {
    public var json: JSON { ["route": .string(route.rawValue), "title": .string(title)] }
}

extension PresentationOptions {
    public var json: JSON {
        var object: JSONObject = ["style": .string(style.rawValue)]
        if let anchor { object.append("anchor", .string(anchor)) }
        object.append("inNavigationContainer", .bool(inNavigationContainer))
        return .object(object)
    }
}

extension Screen {
    public var json: JSON {
        var object: JSONObject = [
            "type": .string(type),
            "renderer": .string(renderer.rawValue),
            "title": .string(title),
            "payload": payload,
            // Each action's bytes were encoded when it was made.
            "actions": .array(actions.map(\.encoded)),
        ]
        if !inputs.isEmpty { object.append("inputs", Self.sortedObject(inputs)) }
        return .object(object)
    }

    /// String members sorted by key, so the same map always encodes to the same bytes.
    static func sortedObject(_ members: [String: String]) -> JSON {
        return .object(JSONObject(uniqueKeysWithValues: members.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) }))
    }
}

extension ScreenAction {
    public var json: JSON {
        var object: JSONObject = ["name": .string(name), "method": .string(method), "path": .string(path)]
        if let row { object.append("row", .string(row)) }
        if let body { object.append("body", body) }
        if !headers.isEmpty { object.append("headers", Screen.sortedObject(headers)) }
        return .object(object)
    }
}
