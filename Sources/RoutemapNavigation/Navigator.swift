/// Turns the route registry into the steps a client performs.
///
/// Every step that shows a route carries its screen, built by the route's payload builder from
/// the inputs and the application's per-request `Context`.
public struct Navigator<Context>: Sendable {
    public let registry: RouteRegistry<Context>

    public init(registry: RouteRegistry<Context>) {
        self.registry = registry
    }

    /// The whole initial UI: `setRoot` the root, then for every route on screen its first tab
    /// (`selectTab`) and its embedded children (`embed`), depth first. Pushed and presented
    /// routes are not part of the initial UI.
    public func launch(inputs: RouteInputs, context: Context) throws -> [Step] {
        guard let root = registry.root else { throw NavigationError.noRoot }
        let tabs = registry.children(of: root.id).filter { $0.presentation == .tab }
        var steps = [
            Step(
                op: .setRoot, route: root.id, animated: false,
                tabs: tabs.isEmpty ? nil : tabs.map { Tab(route: $0.id, title: $0.title) },
                screen: try screen(for: root, inputs: inputs, context: context))
        ]
        try appendInitialChildren(of: root, inputs: inputs, context: context, to: &steps)
        return steps
    }

    /// The step that shows `id` over what is on screen, by how the route is shown relative to its
    /// parent: `selectTab`, `embed` into its slot, `push`, or `present`.
    public func show(_ id: RouteID, inputs: RouteInputs, context: Context, animated: Bool = true) throws -> Step {
        let route = try route(id)
        let screen = try screen(for: route, inputs: inputs, context: context)
        switch route.presentation {
        case .root:
            return Step(op: .setRoot, route: id, animated: false, screen: screen)
        case .tab:
            return Step(op: .selectTab, route: id, animated: animated, screen: screen)
        case .embed(let slot):
            return Step(op: .embed, route: id, animated: animated, slot: slot, screen: screen)
        case .push:
            return Step(op: .push, route: id, animated: animated, screen: screen)
        case .present(let options):
            return Step(op: .present, route: id, animated: animated, presentation: options, screen: screen)
        }
    }

    /// New content for a route already on screen, shown without a transition.
    public func replace(_ id: RouteID, inputs: RouteInputs, context: Context) throws -> Step {
        let route = try route(id)
        return Step(op: .replace, route: id, animated: false, screen: try screen(for: route, inputs: inputs, context: context))
    }

    /// Removes a presented route.
    public func dismiss(_ id: RouteID, animated: Bool = true) throws -> Step {
        _ = try route(id)
        return Step(op: .dismiss, route: id, animated: animated)
    }

    /// The screen of `route`, its payload built from `inputs` and `context`.
    public func screen(for route: Route, inputs: RouteInputs, context: Context) throws -> Screen {
        let content = try registry.builder(for: route.id).map { try $0(inputs, context) } ?? ScreenContent()
        return Screen(
            type: route.screenType, renderer: route.renderer, title: route.title,
            payload: content.payload, actions: content.actions, inputs: content.inputs)
    }

    private func route(_ id: RouteID) throws -> Route {
        guard let route = registry[id] else { throw NavigationError.unknownRoute(id) }
        return route
    }

    private func appendInitialChildren(of parent: Route, inputs: RouteInputs, context: Context, to steps: inout [Step]) throws {
        let children = registry.children(of: parent.id)
        if let firstTab = children.first(where: { $0.presentation == .tab }) {
            steps.append(try show(firstTab.id, inputs: inputs, context: context, animated: false))
            try appendInitialChildren(of: firstTab, inputs: inputs, context: context, to: &steps)
        }
        for child in children {
            guard case .embed = child.presentation else { continue }
            steps.append(try show(child.id, inputs: inputs, context: context, animated: false))
            try appendInitialChildren(of: child, inputs: inputs, context: context, to: &steps)
        }
    }
}
