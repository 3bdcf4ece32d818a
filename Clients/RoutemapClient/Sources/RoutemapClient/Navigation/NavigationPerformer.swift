/// What the app implements to show the server's steps: one method per step operation, with its
/// own view controllers or SwiftUI views (the package README has sketches).
///
/// The session calls the methods one at a time, in the order of the steps, and awaits each: a
/// method returns when its transition is done (after the animation, when `animated`). A method
/// that throws means its step did not happen: the session stops there, performs none of the
/// remaining steps and reports which step failed (`NavigationSession.StepFailed`).
///
/// A `@MainActor` class conforms as is (its methods then run on the main actor). The methods
/// must not wait for the session (it is waiting for them): start a new `Task` for a control's
/// action instead.
public protocol NavigationPerformer: Sendable {
    /// Replaces everything with the root route's screen (and its tab bar, when `tabs` is not empty).
    func setRoot(_ route: RouteID, screen: Screen, tabs: [Tab]) async throws
    /// Brings the tab `route` of the tab bar on screen forward, showing `screen` in it.
    func selectTab(_ route: RouteID, screen: Screen, tabs: [Tab]?, animated: Bool) async throws
    /// Shows `route` in the slot `slot` of its container, replacing what the slot held.
    func embed(_ route: RouteID, slot: String, screen: Screen, tabs: [Tab]?, animated: Bool) async throws
    /// Presents `route` over the screen on top, as `presentation` says (an unknown style: the
    /// app's choice, e.g. a modal).
    func present(_ route: RouteID, presentation: PresentationOptions, screen: Screen, tabs: [Tab]?, animated: Bool) async throws
    /// Removes the presented `route` and everything above it (the topmost one, when a `sub` walk
    /// presented it twice).
    func dismiss(_ route: RouteID, animated: Bool) async throws
    /// Pushes `route` onto the navigation stack of the screen on top.
    func push(_ route: RouteID, screen: Screen, tabs: [Tab]?, animated: Bool) async throws
    /// Pops `route`, the pushed screen on top.
    func pop(_ route: RouteID, animated: Bool) async throws
    /// Pops pushed screens until `route` is on top.
    func popTo(_ route: RouteID, animated: Bool) async throws
    /// Shows a new screen for `route`, already on screen, with no transition.
    func replace(_ route: RouteID, screen: Screen) async throws
    /// Reloads the screen of `route`, the one on top, with no transition.
    func refresh(_ route: RouteID, screen: Screen) async throws
}
