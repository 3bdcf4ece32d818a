import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// `POST /v1/navigate` and `GET /v1/resolve`: walks from the client's stack to any screen, by
/// route id or by deep link (docs/navigation.md).
struct NavigateController {
    let api: API

    /// Bounds on what a client may send: far above any real app, far below harm.
    private static let maxStackDepth = 64
    private static let maxInputs = 32

    func register(on router: inout Router<APIContext>) {
        router.device(.POST, "/v1/navigate", navigate)
        router.device(.GET, "/v1/resolve", resolve)
    }

    @Sendable func navigate(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try request.clientCapabilities()
        let body = try RequestBody(request, allowed: ["from", "to", "mode", "input"])
        let from = try stack(from: body)
        let mode = body.value("mode") == nil ? NavigationMode.to : try body.choice("mode", of: NavigationMode.self)
        let target = try body.optionalString("to", maxLength: 100).map(RouteID.init(rawValue:))
        let input = try inputs(from: body)
        let navigation = try await walk(NavigationRequest(from: from, mode: mode, target: target, input: input), device, client)
        return .json(navigation.json)
    }

    @Sendable func resolve(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try request.clientCapabilities()
        guard let url = request.query["url"], !url.isEmpty else { throw Problem.invalidField("url", "'url' is required.") }
        guard url.utf8.count <= 2048 else { throw Problem.invalidField("url", "'url' must be at most 2048 bytes long.") }
        let from: NavigationStack
        if let text = request.query["from"] {
            let entries = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard entries.count <= Self.maxStackDepth, entries.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 100 }) else {
                throw Problem.invalidField("from", "'from' must be 1 to \(Self.maxStackDepth) comma-separated route ids.")
            }
            from = NavigationStack(entries.map(StackEntry.init(parsing:)))
        } else {
            from = api.navigator.launchStack
        }
        guard let (route, inputs) = api.navigator.registry.resolve(url: url) else {
            throw Problem.notFound(detail: "No route opens the URL '\(url)'.")
        }
        let navigation = try await walk(NavigationRequest(from: from, target: route.id, input: inputs), device, client)
        return .json(navigation.json)
    }

    /// The engine's walk. A walk that needs the current bill when the device has none yet
    /// opens one, as launch would, and walks again (payload builders only read).
    private func walk(_ request: NavigationRequest, _ device: AuthenticatedDevice, _ client: ClientCapabilities) async throws -> Navigation {
        do {
            return try api.navigator.navigate(request, context: api.screenContext(device), client: client)
        } catch let error as NavigationError {
            guard case .missingInput(name: POSInput.billId, _) = error, try api.till.reader(for: device.id).currentBill() == nil else {
                throw error
            }
            let current = try await api.till.currentBill(device: device.id)
            return try api.navigator.navigate(request, context: api.screenContext(device, current), client: client)
        }
    }

    /// `from`: a stack (array of route ids, `sub:` entries allowed) or one route id, meaning
    /// that route's path from the root.
    private func stack(from body: RequestBody) throws -> NavigationStack {
        switch body.value("from") {
        case .string(let id)?:
            guard !id.isEmpty, id.utf8.count <= 100 else { throw Problem.invalidField("from", "'from' must be 1 to 100 bytes long.") }
            let routeID = RouteID(id)
            guard let path = api.navigator.registry.path(to: routeID) else { throw NavigationError.unknownRoute(routeID) }
            return NavigationStack(routes: path.map(\.id))
        case .array(let items)?:
            guard (1...Self.maxStackDepth).contains(items.count) else {
                throw Problem.invalidField("from", "'from' must hold 1 to \(Self.maxStackDepth) entries.")
            }
            return NavigationStack(
                try items.map { item in
                    guard case .string(let text) = item, !text.isEmpty, text.utf8.count <= 100 else {
                        throw Problem.invalidField("from", "Every entry of 'from' must be a route id (a string of 1 to 100 bytes).")
                    }
                    return StackEntry(parsing: text)
                })
        case let other?:
            throw Problem.invalidField("from", "'from' must be a route id or an array of route ids, not \(other.kindName).")
        case nil:
            throw Problem.invalidField("from", "'from' is required.")
        }
    }

    /// `input`: an object of string values.
    private func inputs(from body: RequestBody) throws -> RouteInputs {
        guard let value = body.value("input") else { return [:] }
        guard case .object(let object) = value, object.count <= Self.maxInputs else {
            throw Problem.invalidField("input", "'input' must be an object of at most \(Self.maxInputs) string members.")
        }
        var inputs: RouteInputs = [:]
        for (name, value) in object {
            guard case .string(let string) = value, string.utf8.count <= 200 else {
                throw Problem.invalidField("input", "Input '\(name)' must be a string of at most 200 bytes.")
            }
            inputs[name] = string
        }
        return inputs
    }
}

extension Navigation {
    /// `{navigation, stack}`.
    var json: JSON { ["navigation": steps.json, "stack": stack.json] }
}
