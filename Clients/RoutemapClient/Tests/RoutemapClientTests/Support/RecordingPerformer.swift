@testable import RoutemapClient

/// A `NavigationPerformer` that writes down each step it is asked to perform, one line per
/// step (`"embed menu slot=primary"`, `"present orderSummary style=modal nav"`), keeps the last
/// screen of each route, and fails the step named by `failing` (to test that a failed step
/// stops the rest).
actor RecordingPerformer: NavigationPerformer {
    struct Refused: Error {}

    private(set) var lines: [String] = []
    private(set) var lastScreen: [RouteID: Screen] = [:]
    /// A line whose step fails instead of being performed (once).
    var failing: String?

    init(failing: String? = nil) { self.failing = failing }

    /// The lines written since the last call.
    func take() -> [String] {
        defer { lines = [] }
        return lines
    }

    func fail(_ line: String?) { failing = line }

    private func record(_ line: String, _ route: RouteID, _ screen: Screen?) throws {
        if line == failing {
            failing = nil
            throw Refused()
        }
        lines.append(line)
        if let screen { lastScreen[route] = screen }
    }

    func setRoot(_ route: RouteID, screen: Screen, tabs: [Tab]) async throws {
        try record("setRoot \(route) tabs=\(tabs.map(\.route).joined(separator: ","))", route, screen)
    }

    func selectTab(_ route: RouteID, screen: Screen, tabs: [Tab]?, animated: Bool) async throws {
        try record("selectTab \(route)", route, screen)
    }

    func embed(_ route: RouteID, slot: String, screen: Screen, tabs: [Tab]?, animated: Bool) async throws {
        try record("embed \(route) slot=\(slot)", route, screen)
    }

    func present(_ route: RouteID, presentation: PresentationOptions, screen: Screen, tabs: [Tab]?, animated: Bool) async throws {
        try record("present \(route) style=\(presentation.style)\(presentation.inNavigationContainer ? " nav" : "")", route, screen)
    }

    func dismiss(_ route: RouteID, animated: Bool) async throws { try record("dismiss \(route)", route, nil) }

    func push(_ route: RouteID, screen: Screen, tabs: [Tab]?, animated: Bool) async throws { try record("push \(route)", route, screen) }

    func pop(_ route: RouteID, animated: Bool) async throws { try record("pop \(route)", route, nil) }

    func popTo(_ route: RouteID, animated: Bool) async throws { try record("popTo \(route)", route, nil) }

    func replace(_ route: RouteID, screen: Screen) async throws { try record("replace \(route)", route, screen) }

    func refresh(_ route: RouteID, screen: Screen) async throws { try record("refresh \(route)", route, screen) }
}
