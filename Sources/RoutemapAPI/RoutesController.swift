import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// `GET {prefix}/routes` and `GET {prefix}/routes/{routeId}`: an app's route registry, for client
/// developers and tools. It never changes while the server runs, so both answers are encoded once.
struct RoutesController {
    private let tree: JSONFragment
    private let routes: [String: JSONFragment]

    init<Context>(registry: RouteRegistry<Context>) {
        tree = JSONFragment(["root": registry.root.map { registry.treeJSON(from: $0.id) } ?? .null])
        var routes: [String: JSONFragment] = [:]
        for route in registry.routes {
            if let json = registry.routeJSON(route.id) { routes[route.id.rawValue] = JSONFragment(json) }
        }
        self.routes = routes
    }

    func register(on router: inout Router<APIContext>, prefix: String) {
        router.device(.GET, prefix + "/routes", immediately: list)
        router.device(.GET, prefix + "/routes/{routeId}", immediately: show)
    }

    @Sendable func list(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        .json(.fragment(tree))
    }

    @Sendable func show(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        let id = try request.parameter("routeId")
        guard let route = routes[id] else { throw Problem.notFound("route", id) }
        return .json(.fragment(route))
    }
}
