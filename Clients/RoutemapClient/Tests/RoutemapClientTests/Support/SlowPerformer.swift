@testable import RoutemapClient

/// A `NavigationPerformer` whose every step takes `delay` (a `Task.sleep`, which a cancelled
/// task cuts short, as an animation awaited in a cancelled task may be): it notes each step
/// when it starts (`"push game"`), and again when it is done (`"push game done"`).
actor SlowPerformer: NavigationPerformer {
    private var delay: Duration
    private(set) var lines: [String] = []

    init(delay: Duration = .zero) { self.delay = delay }

    func setDelay(_ delay: Duration) { self.delay = delay }

    /// The lines noted since the last call.
    func take() -> [String] {
        defer { lines = [] }
        return lines
    }

    private func step(_ line: String) async throws {
        lines.append(line)
        try await Task.sleep(for: delay)
        lines.append(line + " done")
    }

    func setRoot(_ route: RouteID, screen: Screen, tabs: [Tab]) async throws { try await step("setRoot \(route)") }
    func selectTab(_ route: RouteID, screen: Screen, tabs: [Tab]?, animated: Bool) async throws { try await step("selectTab \(route)") }
    func embed(_ route: RouteID, slot: String, screen: Screen, tabs: [Tab]?, animated: Bool) async throws { try await step("embed \(route)") }
    func present(_ route: RouteID, presentation: PresentationOptions, screen: Screen, tabs: [Tab]?, animated: Bool) async throws {
        try await step("present \(route)")
    }
    func dismiss(_ route: RouteID, animated: Bool) async throws { try await step("dismiss \(route)") }
    func push(_ route: RouteID, screen: Screen, tabs: [Tab]?, animated: Bool) async throws { try await step("push \(route)") }
    func pop(_ route: RouteID, animated: Bool) async throws { try await step("pop \(route)") }
    func popTo(_ route: RouteID, animated: Bool) async throws { try await step("popTo \(route)") }
    func replace(_ route: RouteID, screen: Screen) async throws { try await step("replace \(route)") }
    func refresh(_ route: RouteID, screen: Screen) async throws { try await step("refresh \(route)") }
}
