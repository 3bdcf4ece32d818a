import RoutemapJSON

extension Step {
    /// The step as the client receives it; absent optional members are omitted.
    public var json: JSON {
        var object: JSONObject = ["op": .string(op.rawValue), "route": .string(route.rawValue), "animated": .bool(animated)]
        if let slot { object["slot"] = .string(slot) }
        if let tabs { object["tabs"] = .array(tabs.map(\.json)) }
        if let presentation { object["presentation"] = presentation.json }
        if let screen { object["screen"] = screen.json }
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
        if let anchor { object["anchor"] = .string(anchor) }
        object["inNavigationContainer"] = .bool(inNavigationContainer)
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
            "actions": .array(actions.map(\.json)),
        ]
        if !inputs.isEmpty {
            object["inputs"] = .object(JSONObject(inputs.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) }))
        }
        return .object(object)
    }
}

extension ScreenAction {
    public var json: JSON {
        var object: JSONObject = ["name": .string(name), "method": .string(method), "path": .string(path)]
        if let row { object["row"] = .string(row) }
        if let body { object["body"] = body }
        if !headers.isEmpty {
            object["headers"] = .object(JSONObject(headers.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) }))
        }
        return .object(object)
    }
}
