import Logging
import RoutemapDomain
import RoutemapHTTP
import RoutemapNavigation

/// routemap's HTTP API: the `/v1` point-of-sale endpoints, each answering with data and the
/// navigation steps the client performs, plus `/healthz`.
public struct API: Sendable {
    let till: Till
    let menu: MenuCatalog
    let navigator: Navigator<ScreenContext>
    let logger: Logger

    /// Reads the menu once (it is cached for the life of the process) and checks the route
    /// registry; throws `RegistryProblems` when it is broken.
    public init(till: Till, logger: Logger) throws {
        let problems = POSRegistry.problems
        guard problems.isEmpty else { throw RegistryProblems(problems: problems) }
        self.till = till
        self.menu = MenuCatalog(items: try till.menu())
        self.navigator = POSNavigation.makeNavigator()
        self.logger = logger
    }

    /// A router with every endpoint.
    public func makeRouter() -> Router {
        var router = Router()
        router.add(middleware: DomainErrorMiddleware.translate)
        MenuController(menu: menu).register(on: &router)
        BillsController(api: self).register(on: &router)
        LaunchController(api: self).register(on: &router)
        RoutesController(registry: navigator.registry).register(on: &router)
        NavigateController(api: self).register(on: &router)
        HealthController(till: till).register(on: &router)
        return router
    }

    /// The stack `GET /v1/launch` leaves the client with: the root and its selected first tabs.
    var launchStack: NavigationStack {
        guard let root = navigator.registry.root else { return NavigationStack([]) }
        return NavigationStack([StackEntry(root.id)] + navigator.registry.firstTabChain(below: root.id))
    }

    /// The payload builders' context for one request, holding the bills it already loaded.
    func screenContext(_ bills: Bill...) -> ScreenContext {
        ScreenContext(till: till, menu: menu, bills: bills)
    }
}

/// Turns the domain's rule violations and impossible navigations into their problems, so handlers just `try`.
enum DomainErrorMiddleware {
    @Sendable static func translate(_ request: Request, _ next: (Request) throws -> Response) throws -> Response {
        do {
            return try next(request)
        } catch let error as POSError {
            throw error.problem
        } catch let error as NavigationError {
            throw error.problem
        }
    }
}
