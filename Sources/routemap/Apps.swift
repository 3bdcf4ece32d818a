import RoutemapAPI
import RoutemapDomain
import RoutemapNavigation
import RoutemapPOS
import RoutemapStorage
import RoutemapTrivia

/// The apps this server serves, listed once: `serve` makes each from the server's resources,
/// and `routemap routes [check] --app NAME` prints or checks each one's registry. The first
/// also answers the navigation endpoints without an app name (`GET /v1/launch`, …), as before
/// apps had names. Adding an app: its module, and one line here.
enum Apps {
    static let all: [AppEntry] = [
        AppEntry(POSApp.self) { try POSApp(till: $0.till, idempotency: $0.idempotency) },
        AppEntry(TriviaApp.self) { resources in
            switch resources.database {
            case .sqlite(let database): try TriviaApp(store: SQLiteTriviaStore(database), idempotency: resources.idempotency)
            case .postgres(let database): try TriviaApp(store: PostgresTriviaStore(database), idempotency: resources.idempotency)
            }
        },
    ]

    /// The entry named `name`, or `nil`.
    static func named(_ name: String) -> AppEntry? { all.first { $0.name == name } }
}

/// What the executable hands every app it makes: the opened store and the till over it.
struct AppResources: Sendable {
    let database: OpenedStore
    let till: Till
    /// The idempotency keys in flight, one set for every app (a key is one device's).
    let idempotency = Idempotency()
}

/// One app as the executable lists it: its name and registry (no store needed), and how to make
/// it from the server's resources.
struct AppEntry: Sendable {
    let name: String
    /// What is wrong with the app's registry; empty when it may be served.
    let problems: @Sendable () -> [RegistryProblem]
    /// The registry as an indented tree.
    let tree: @Sendable () -> String
    let make: @Sendable (AppResources) throws -> any App

    init<A: App>(_ app: A.Type, make: @escaping @Sendable (AppResources) throws -> A) {
        name = A.name
        problems = { A.registryProblems }
        tree = { A.registryTree }
        self.make = { try make($0) }
    }
}
