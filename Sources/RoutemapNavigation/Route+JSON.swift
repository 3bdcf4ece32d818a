import RoutemapJSON

extension Route {
    /// The route as `GET /v1/routes/{routeId}` describes it (without children).
    public var json: JSON {
        var object: JSONObject = [
            "id": .string(id.rawValue),
            "parent": parent.map { .string($0.rawValue) } ?? .null,
            "presentation": presentation.json,
            "screenType": .string(screenType),
            "title": .string(title),
            "renderer": .string(renderer.rawValue),
            "offersDeclarative": .bool(offersDeclarative),
            "slots": .array(slots.map(JSON.string)),
            "requires": .array(requires.map(JSON.string)),
            "callerSupplied": .array(callerSupplied.map(JSON.string)),
            "provides": .array(provides.map(JSON.string)),
            "deepLinks": .array(deepLinks.map { .string($0.text) }),
        ]
        if let fallback { object.append("fallback", .string(fallback.rawValue)) }
        if let minimumAppVersion { object.append("minimumAppVersion", .string(minimumAppVersion.description)) }
        if let routeGuard {
            object.append(
                "guard", ["name": .string(routeGuard.name), "code": .string(routeGuard.code), "summary": .string(routeGuard.summary)])
        }
        return .object(object)
    }
}

extension Presentation {
    /// `{"kind": "embed", "slot": "primary"}`, `{"kind": "present", "style": "modal", …}`.
    public var json: JSON {
        switch self {
        case .root: return ["kind": "root"]
        case .tab: return ["kind": "tab"]
        case .push: return ["kind": "push"]
        case .embed(let slot): return ["kind": "embed", "slot": .string(slot)]
        case .present(let options):
            var object: JSONObject = ["kind": "present", "style": .string(options.style.rawValue)]
            if let anchor = options.anchor { object.append("anchor", .string(anchor)) }
            object.append("inNavigationContainer", .bool(options.inNavigationContainer))
            return .object(object)
        }
    }
}

extension RouteRegistry {
    /// The registry as a tree from the root, each route with its `children` (`GET /v1/routes`).
    public func treeJSON(from id: RouteID) -> JSON {
        guard let route = self[id], case .object(var object) = route.json else { return .null }
        object.append("children", .array(children(of: id).map { treeJSON(from: $0.id) }))
        return .object(object)
    }

    /// One route with the ids of its children (`GET /v1/routes/{routeId}`).
    public func routeJSON(_ id: RouteID) -> JSON? {
        guard let route = self[id], case .object(var object) = route.json else { return nil }
        object.append("children", .array(children(of: id).map { .string($0.id.rawValue) }))
        return .object(object)
    }
}
