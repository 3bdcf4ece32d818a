/// The answer to a navigation: the steps the client performs, in order, and its stack after them.
public struct Navigation: Sendable, Hashable {
    public var steps: [Step]
    public var stack: NavigationStack

    public init(steps: [Step], stack: NavigationStack) {
        self.steps = steps
        self.stack = stack
    }
}

/// How `POST /v1/navigate` moves: to any route (`to`), one hop up (`parent`), or into a route's
/// subtree shown over the current screen (`sub`).
public enum NavigationMode: String, Sendable, Hashable, CaseIterable {
    case to
    case parent
    case sub
}

/// A navigation asked for by a client.
public struct NavigationRequest: Sendable, Hashable {
    public var from: NavigationStack
    public var mode: NavigationMode
    public var target: RouteID?
    /// Inputs the client sends; only those the target's screens declare are used.
    public var input: RouteInputs

    public init(from: NavigationStack, mode: NavigationMode = .to, target: RouteID? = nil, input: RouteInputs = [:]) {
        self.from = from
        self.mode = mode
        self.target = target
        self.input = input
    }
}
