import RoutemapDomain
import RoutemapHTTP
import RoutemapNavigation

/// One app the engine serves beside others: its name, its route registry, the context its
/// payload builders read, its launch, and its own endpoints.
///
/// Apps share the engine: devices, their tokens and roles, admission and rate limits,
/// idempotency keys, problems, health, metrics and the web client's files, and the navigation
/// endpoints, which the engine serves for every app from its registry
/// (`/v1/apps/{name}/launch`, `…/navigate`, `…/resolve`, `…/routes`; ``AppNavigationController``).
///
/// Adding an app: a module with a type conforming to this, and one line in the executable's
/// list of apps (`Sources/routemap/Apps.swift`). CONTRIBUTING.md, "Adding an app".
package protocol App: DataReads {
    /// What the app's payload builders and guards get with each request.
    associatedtype Context: Sendable

    /// The app's name in paths (`/v1/apps/{name}/…`) and in `routemap routes --app NAME`:
    /// lowercase letters and digits, starting with a letter.
    static var name: String { get }

    /// The app's route registry, declared once. The server refuses to start while it has
    /// problems (`RouteRegistry.problems()`).
    static var registry: RouteRegistry<Context> { get }

    /// The navigator over ``registry``, with the inputs the app can derive.
    var navigator: Navigator<Context> { get }

    /// The payload builders' context for one request of `device`.
    func screenContext(for device: AuthenticatedDevice) throws -> Context

    /// The app's whole initial UI for `device` (`GET /v1/apps/{name}/launch`): answered at
    /// once, or `.later` when it must write first.
    func launch(_ request: Request, _ device: AuthenticatedDevice) throws -> Router<APIContext>.Reply

    /// A walk failed with `error` for want of something only a write makes (the point of sale's
    /// first bill of a device): the work that makes it and returns the context to walk again
    /// with. `nil` (the default): the error stands.
    func contextAfterWriting(
        for error: NavigationError, device: AuthenticatedDevice
    ) throws -> (@Sendable () async throws -> Context)?

    /// Registers the app's own endpoints (its data and its changes).
    func register(on router: inout Router<APIContext>)

    /// Throws unless the app's data answers (for `GET /healthz`). The default does nothing.
    func checkHealth() throws
    /// Work the app keeps doing while the server runs (the point of sale's check for menu
    /// changes made by other nodes), run under the server's service group from start-up until
    /// the stop cancels it. The default has none and returns at once.
    func runInBackground() async
}

extension App {
    package func contextAfterWriting(
        for error: NavigationError, device: AuthenticatedDevice
    ) throws -> (@Sendable () async throws -> Context)? { nil }

    package func checkHealth() throws {}
    package func runInBackground() async {}

    /// The app's name, from an instance (for a list of apps of different types).
    package var name: String { Self.name }

    /// Where the engine serves the app's navigation endpoints: `/v1/apps/{name}`. The app's
    /// screen actions that walk post to `navigationPrefix + "/navigate"`, never to the `/v1`
    /// alias, which serves whichever app is listed first.
    package static var navigationPrefix: String { "/v1/apps/\(name)" }

    /// What is wrong with the app's registry; empty when the server may serve it.
    package static var registryProblems: [RegistryProblem] { registry.problems() }

    /// The app's registry as an indented tree (`routemap routes --app NAME`).
    package static var registryTree: String { registry.treeText() }
}

/// The server refuses to start on a broken route registry; this carries what is wrong.
public struct RegistryProblems: Error, CustomStringConvertible {
    /// The app whose registry is broken.
    public let app: String
    public let problems: [RegistryProblem]

    public init(app: String, problems: [RegistryProblem]) {
        self.app = app
        self.problems = problems
    }

    public var description: String {
        "the route registry of the app '\(app)' has \(problems.count) problem(s):\n" + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}
