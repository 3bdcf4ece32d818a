extension RouteRegistry {
    /// The registry as an indented tree, one route per line with how it is shown and what it
    /// needs, for `routemap routes`. Routes outside the tree (a broken registry) are listed last.
    public func treeText() -> String {
        var lines: [String] = []
        var printed: Set<RouteID> = []
        func visit(_ route: Route, depth: Int) {
            guard printed.insert(route.id).inserted else { return }
            lines.append(String(repeating: "  ", count: depth) + route.summary)
            for child in children(of: route.id) { visit(child, depth: depth + 1) }
        }
        if let root { visit(root, depth: 0) }
        let rest = routes.filter { !printed.contains($0.id) }
        if !rest.isEmpty {
            lines.append("not reachable from a root:")
            for route in rest { visit(route, depth: 1) }
        }
        return lines.joined(separator: "\n")
    }
}

extension Route {
    /// `bill  [embed secondary] bill "Bill" requires billId (caller) provides billId links routemap://bills/{billId}`
    fileprivate var summary: String {
        var parts = ["\(id)  [\(presentation.summary)] \(screenType) \"\(title)\""]
        if renderer == .declarative { parts.append("declarative") }
        if offersDeclarative, renderer == .native { parts.append("offers declarative") }
        if !slots.isEmpty { parts.append("slots \(slots.joined(separator: ","))") }
        if !requires.isEmpty {
            parts.append("requires " + requires.map { callerSupplied.contains($0) ? "\($0) (caller)" : $0 }.joined(separator: ","))
        }
        if !provides.isEmpty { parts.append("provides \(provides.joined(separator: ","))") }
        if !deepLinks.isEmpty { parts.append("links \(deepLinks.map(\.text).joined(separator: " "))") }
        if let fallback { parts.append("fallback \(fallback)") }
        if let minimumAppVersion { parts.append("app ≥ \(minimumAppVersion)") }
        if let routeGuard { parts.append("guard \(routeGuard.name) (\(routeGuard.code): \(routeGuard.summary))") }
        return parts.joined(separator: " ")
    }
}

extension Presentation {
    fileprivate var summary: String {
        switch self {
        case .root: "root"
        case .tab: "tab"
        case .push: "push"
        case .embed(let slot): "embed \(slot)"
        case .present(let options):
            "present \(options.style.rawValue)\(options.anchor.map { " at \($0)" } ?? "")\(options.inNavigationContainer ? " in navigation" : "")"
        }
    }
}
