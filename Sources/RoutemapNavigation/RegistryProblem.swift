/// One thing wrong with a route registry, found by `RouteRegistry.problems()`.
public struct RegistryProblem: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problems the check looks for; the raw value is stable for tools to match.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Two routes share an id.
        case duplicateID = "duplicate_id"
        /// An id is empty or uses characters outside `A-Z a-z 0-9 _ - .` (or does not start with a letter).
        case invalidID = "invalid_id"
        /// No route is the root.
        case noRoot = "no_root"
        /// More than one route is the root.
        case multipleRoots = "multiple_roots"
        /// The root has a parent, or another route has none.
        case misplacedRoot = "misplaced_root"
        /// A route's parent is not registered.
        case missingParent = "missing_parent"
        /// A route is embedded in a slot its parent does not offer.
        case unknownSlot = "unknown_slot"
        /// A route is its own ancestor.
        case cycle
        /// A route cannot be reached from the root.
        case unreachable
        /// A required input is neither provided by an ancestor nor caller-supplied.
        case unprovidedInput = "unprovided_input"
        /// A deep-link pattern is malformed.
        case invalidDeepLink = "invalid_deep_link"
        /// Some URL would match two deep-link patterns.
        case ambiguousDeepLink = "ambiguous_deep_link"
        /// A route's fallback is not registered, or fallbacks lead back to the route.
        case missingFallback = "missing_fallback"
        /// A route has a guard without a predicate, or a guard's code is not a stable code
        /// (lowercase letters, digits and `_`).
        case invalidGuard = "invalid_guard"
        /// A guarded route is part of its parent's initial contents (a first tab, the first route
        /// of a slot): a failing guard would fail every walk that shows the parent.
        case guardedInitialContent = "guarded_initial_content"
    }

    public var kind: Kind
    /// The route the problem is about (`nil` for a registry-wide one such as `noRoot`).
    public var route: RouteID?
    public var message: String

    public init(_ kind: Kind, route: RouteID?, _ message: String) {
        self.kind = kind
        self.route = route
        self.message = message
    }

    public var description: String { "\(route.map { "\($0): " } ?? "")\(message) [\(kind.rawValue)]" }
}
