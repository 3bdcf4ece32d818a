import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// `POST /v1/navigate` and `GET /v1/resolve`: walks from the client's stack to any screen, by
/// route id or by deep link (docs/navigation.md).
struct NavigateController {
    let api: API

    func register(on router: inout Router<APIContext>) {
        router.device(.POST, "/v1/navigate", reading: api.till, unlessWaiting: navigate)
        router.device(.GET, "/v1/resolve", reading: api.till, unlessWaiting: resolve)
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
            from = api.navigator.rootStack
        }
        guard let (route, inputs) = api.navigator.registry.resolve(url: url) else {
            throw Problem.notFound(detail: "No route opens the URL '\(url)'.")
        }
        return try walk(NavigationRequest(from: from, target: route.id, input: inputs), device, client)
    }

    /// The engine's walk, answered at once. A walk that needs the current bill when the device
    /// has none yet waits instead: it opens one, as launch would, and walks again (payload
    /// builders only read).
    private func walk(_ request: NavigationRequest, _ device: AuthenticatedDevice, _ client: ClientCapabilities) throws -> Router<APIContext>.Reply {
        do {
            return .now(.json(try api.navigator.navigate(request, context: api.screenContext(device), client: client).json))
        } catch let error as NavigationError {
            guard case .missingInput(name: POSInput.billId, _) = error, try api.till.reader(for: device.id).currentBill() == nil else {
                throw error
            }
            return .later {
                let current = try await api.till.currentBill(device: device.id)
                return .json(try api.navigator.navigate(request, context: api.screenContext(device, current), client: client).json)
            }
        }
    }

    /// `from`: a stack, or one route id, meaning that route's path from the root (no inputs known).
    private func stack(from body: RequestBody) throws -> NavigationStack {
        switch body.value("from") {
        case let value? where value.stringValue != nil:
            let routeID = try NavigationInput.routeID(value, field: "from")
            guard let path = api.navigator.registry.path(to: routeID) else { throw NavigationError.unknownRoute(routeID) }
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
    var json: JSON { ["navigation": steps.json, "stack": stack.json] }
}
