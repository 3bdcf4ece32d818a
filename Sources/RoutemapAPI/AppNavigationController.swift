import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// The navigation endpoints of one app, served by the engine from the app's registry under a
/// prefix (`/v1/apps/{name}`; the first app listed also under `/v1`, as before apps had names):
///
/// - `GET {prefix}/launch`: the app's whole initial UI (``App/launch(_:_:)``);
/// - `POST {prefix}/navigate` and `GET {prefix}/resolve`: walks from the client's stack to any
///   screen, by route id or by deep link (docs/navigation.md);
/// - `GET {prefix}/routes` and `GET {prefix}/routes/{routeId}`: the registry.
struct AppNavigationController<A: App> {
    let app: A
    let routes: RoutesController

    init(app: A) {
        self.app = app
        self.routes = RoutesController(registry: A.registry)
    }

    func register(on router: inout Router<APIContext>, prefix: String) {
        router.device(.GET, prefix + "/launch", reading: app, unlessWaiting: launch)
        router.device(.POST, prefix + "/navigate", reading: app, unlessWaiting: navigate)
        router.device(.GET, prefix + "/resolve", reading: app, unlessWaiting: resolve)
        routes.register(on: &router, prefix: prefix)
    }

    @Sendable func launch(_ request: Request, _ device: AuthenticatedDevice) throws -> Router<APIContext>.Reply {
        try app.launch(request, device)
    }

    @Sendable func navigate(_ request: Request, _ device: AuthenticatedDevice) throws -> Router<APIContext>.Reply {
        let client = try request.clientCapabilities()
        let body = try RequestBody(request, allowed: ["from", "to", "mode", "input"])
        let from = try stack(from: body)
        let mode = body.value("mode") == nil ? NavigationMode.to : try body.choice("mode", of: NavigationMode.self)
        let target = try body.value("to").map { try NavigationInput.routeID($0, field: "to") }
        let input = try body.value("input").map { try NavigationInput.inputs($0, field: "input") } ?? [:]
        return try walk(NavigationRequest(from: from, mode: mode, target: target, input: input), device, client)
    }

    @Sendable func resolve(_ request: Request, _ device: AuthenticatedDevice) throws -> Router<APIContext>.Reply {
        let client = try request.clientCapabilities()
        guard let url = request.query["url"], !url.isEmpty else { throw Problem.invalidField("url", "'url' is required.") }
        guard url.unicodeScalars.count <= 2048 else { throw Problem.invalidField("url", "'url' must be at most 2048 characters long.") }
        let from: NavigationStack
        if let text = request.query["from"] {
            if text.hasPrefix("[") {
                guard let json = try? JSON.parse(text) else {
                    throw Problem.invalidField("from", "'from' starts with '[' but is not JSON.")
                }
                from = try NavigationInput.stack(json, field: "from")
            } else {
                from = try NavigationInput.commaSeparatedStack(text, field: "from")
            }
        } else {
            from = app.navigator.rootStack
        }
        guard let (route, inputs) = app.navigator.registry.resolve(url: url) else {
            throw Problem.notFound(detail: "No route opens the URL '\(url)'.")
        }
        return try walk(NavigationRequest(from: from, target: route.id, input: inputs), device, client)
    }

    /// The engine's walk, answered at once. A walk that needs something only a write makes
    /// (the point of sale's first bill) waits instead: the app makes it and the walk runs again
    /// (payload builders only read).
    private func walk(_ request: NavigationRequest, _ device: AuthenticatedDevice, _ client: ClientCapabilities) throws -> Router<APIContext>.Reply {
        let app = self.app
        do {
            return .now(.json(try app.navigator.navigate(request, context: app.screenContext(for: device), client: client).json))
        } catch let error as NavigationError {
            guard let write = try app.contextAfterWriting(for: error, device: device) else { throw error }
            return .later {
                .json(try app.navigator.navigate(request, context: try await write(), client: client).json)
            }
        }
    }

    /// `from`: a stack, or one route id, meaning that route's path from the root (no inputs known).
    private func stack(from body: RequestBody) throws -> NavigationStack {
        switch body.value("from") {
        case let value? where value.stringValue != nil:
            let routeID = try NavigationInput.routeID(value, field: "from")
            guard let path = app.navigator.registry.path(to: routeID) else { throw NavigationError.unknownRoute(routeID) }
            return NavigationStack(routes: path.map(\.id))
        case let value?:
            return try NavigationInput.stack(value, field: "from")
        case nil:
            throw Problem.invalidField("from", "'from' is required.")
        }
    }
}

extension Navigation {
    /// `{navigation, stack}`.
    package var json: JSON { ["navigation": steps.json, "stack": stack.json] }
}
