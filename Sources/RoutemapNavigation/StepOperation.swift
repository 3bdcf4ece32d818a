/// What a client does for one step of a navigation.
public enum StepOperation: String, Sendable, Hashable, CaseIterable {
    /// Install the root route (with its `tabs`), replacing everything on screen.
    case setRoot
    /// Bring a tab of the root forward.
    case selectTab
    /// Show a route inside a slot of the container on screen.
    case embed
    /// Present a route over the current screen.
    case present
    /// Remove a presented route (the step's `route`).
    case dismiss
    /// Push a route onto the current navigation stack.
    case push
    /// Pop the top route (the step's `route`) off its navigation stack.
    case pop
    /// Pop pushed routes until the step's `route` is on top.
    case popTo
    /// Show a new payload for a route already on screen, with no transition.
    case replace
    /// Reload the payload of the route on top.
    case refresh
}

extension StepOperation {
    /// What a client without this operation gets instead (itself when nothing replaces it):
    /// `popTo` → `pop`s, `refresh` → `replace`.
    public var degraded: StepOperation {
        switch self {
        case .popTo: .pop
        case .refresh: .replace
        default: self
        }
    }
}
