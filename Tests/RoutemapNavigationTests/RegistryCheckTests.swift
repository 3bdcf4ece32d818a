import RoutemapNavigation
import RoutemapPOS
import RoutemapTrivia
import Testing

/// `RouteRegistry.problems()`: one small broken registry per kind of problem
/// (docs/navigation.md, "Checks"), each expected to report exactly that problem on that route.
@Suite("Registry checks")
struct RegistryCheckTests {
    private typealias Kind = RegistryProblem.Kind

    /// A registry of routes registered one by one, with no builders.
    private func registry(_ routes: Route...) -> RouteRegistry<String> {
        var registry = RouteRegistry<String>()
        for route in routes { registry.register(route) }
        return registry
    }

    private func root(_ id: RouteID = "root", slots: [String] = [], provides: [String] = []) -> Route {
        Route(id, parent: nil, presentation: .root, screenType: "root", title: "Root", slots: slots, provides: provides)
    }

    private func child(
        _ id: RouteID, of parent: RouteID? = "root", _ presentation: Presentation = .push, requires: [String] = [],
        callerSupplied: [String] = [], deepLinks: [DeepLinkPattern] = [], fallback: RouteID? = nil
    ) -> Route {
        Route(
            id, parent: parent, presentation: presentation, screenType: id.rawValue, title: id.rawValue, requires: requires,
            callerSupplied: callerSupplied, deepLinks: deepLinks, fallback: fallback)
    }

    /// The problems as (kind, route) pairs, order ignored: the check must report exactly these.
    private func found(_ registry: RouteRegistry<String>) -> Set<Pair> {
        Set(registry.problems().map { Pair(kind: $0.kind, route: $0.route) })
    }

    private struct Pair: Hashable, CustomStringConvertible {
        var kind: Kind
        var route: RouteID?
        var description: String { "\(kind.rawValue)@\(route?.rawValue ?? "-")" }
    }

    private func exactly(_ pairs: (Kind, RouteID?)...) -> Set<Pair> { Set(pairs.map { Pair(kind: $0.0, route: $0.1) }) }

    @Test("every kind of problem has a test here")
    func everyKindCovered() {
        // Update this list with a new test when RegistryProblem.Kind grows.
        let covered: Set<Kind> = [
            .duplicateID, .invalidID, .noRoot, .multipleRoots, .misplacedRoot, .missingParent, .unknownSlot, .cycle, .unreachable,
            .unprovidedInput, .invalidDeepLink, .ambiguousDeepLink, .missingFallback, .invalidGuard, .guardedInitialContent,
        ]
        #expect(covered == Set(Kind.allCases))
    }

    @Test("the test trees and the tree DSL's registries are well formed")
    func wellFormed() {
        #expect(TestTrees.pos.problems().isEmpty)
        #expect(TestTrees.deep.problems().isEmpty)
        #expect(registry(root(), child("a"), child("b", of: "a")).problems().isEmpty)
    }

    @Test("the shipped apps' registries (point of sale, trivia) have no problems, guards included")
    func shippedRegistries() {
        #expect(POSApp.registryProblems.isEmpty, "\(POSApp.registryProblems)")
        #expect(TriviaApp.registryProblems.isEmpty, "\(TriviaApp.registryProblems)")
        #expect(TestTrees.trivia.problems().isEmpty)
        #expect(TestTrees.shippedPOS.problems().isEmpty)
    }

    @Test("the tree DSL sets each route's parent to the node it is written in, children in order")
    func dslSetsParents() {
        let registry = TestTrees.deep
        #expect(registry["app"]?.parent == nil)
        #expect(registry["home"]?.parent == "app")
        #expect(registry["comments"]?.parent == "post")
        #expect(registry["permissionHelp"]?.parent == "permissions")
        #expect(registry.children(of: "library").map(\.id) == ["folders", "albumGrid", "albumList", "player"])
        #expect(registry.routes(inSlot: "content", of: "library").map(\.id) == ["albumGrid", "albumList"])
        #expect(registry.order.first == "app" && registry.order.count == 33)
        for route in registry.routes where route.id != "app" {
            #expect(registry.children(of: route.parent!).contains(route), "\(route.id)")
        }
        #expect(registry.path(to: "expert")?.map(\.id) == ["app", "settings", "editor", "general", "advanced", "expert"])
    }

    @Test("duplicate_id: two routes share an id")
    func duplicateID() {
        let broken = registry(root(), child("a"), child("a"))
        #expect(found(broken) == exactly((.duplicateID, "a")))
        #expect(broken.routes.count == 2)
    }

    @Test("invalid_id: an id breaks the id syntax", arguments: ["1st", "with space", "sub:x", "", "_lead", "é"])
    func invalidID(id: String) {
        #expect(found(registry(root(), child(RouteID(id)))) == exactly((.invalidID, RouteID(id))))
    }

    @Test("valid ids: a letter, then letters, digits, _ - .")
    func validIDs() {
        #expect(registry(root(), child("a1_b-c.d"), child("Z")).problems().isEmpty)
    }

    @Test("no_root: no route is shown as root")
    func noRoot() {
        let problems = RouteRegistry<String>().problems()
        #expect(problems.map(\.kind) == [.noRoot])
        #expect(problems.first?.route == nil)
    }

    @Test("multiple_roots: each root is reported")
    func multipleRoots() {
        #expect(found(registry(root("one"), root("two"))) == exactly((.multipleRoots, "one"), (.multipleRoots, "two")))
    }

    @Test("misplaced_root: a route other than the root has no parent")
    func misplacedRootOrphan() {
        #expect(found(registry(root(), child("orphan", of: nil, .tab))) == exactly((.misplacedRoot, "orphan")))
    }

    @Test("misplaced_root: the root has a parent (and so the registry has no parentless root)")
    func misplacedRootWithParent() {
        let route = Route("root", parent: "elsewhere", presentation: .root, screenType: "root", title: "Root")
        #expect(found(registry(route)) == exactly((.misplacedRoot, "root"), (.missingParent, "root")))
    }

    @Test("missing_parent: a parent is not registered")
    func missingParent() {
        #expect(found(registry(root(), child("a", of: "ghost"))) == exactly((.missingParent, "a")))
    }

    @Test("unknown_slot: a route is embedded in a slot its parent does not offer")
    func unknownSlot() {
        let broken = registry(root(slots: ["main"]), child("ok", .embed(slot: "main")), child("lost", .embed(slot: "side")))
        #expect(found(broken) == exactly((.unknownSlot, "lost")))
    }

    @Test("cycle: routes that are their own ancestors")
    func cycle() {
        #expect(found(registry(root(), child("a", of: "b"), child("b", of: "a"))) == exactly((.cycle, "a"), (.cycle, "b")))
        #expect(found(registry(root(), child("self", of: "self"))) == exactly((.cycle, "self")))
    }

    @Test("unreachable: a route hanging below a cycle is reported beside the cycle")
    func unreachable() {
        // A chain of parents that does not reach the root ends in a cycle, a missing parent or a
        // parentless route, each a problem of its own; the routes hanging below are unreachable.
        let belowCycle = registry(root(), child("a", of: "b"), child("b", of: "a"), child("hanging", of: "a"), child("deeper", of: "hanging"))
        #expect(
            found(belowCycle) == exactly((.cycle, "a"), (.cycle, "b"), (.unreachable, "hanging"), (.unreachable, "deeper")))
        let belowMissing = registry(root(), child("a", of: "ghost"), child("hanging", of: "a"))
        #expect(found(belowMissing) == exactly((.missingParent, "a"), (.unreachable, "hanging")))
    }

    @Test("unprovided_input: a required input is neither provided by an ancestor nor caller-supplied")
    func unprovidedInput() {
        let broken = registry(
            root(provides: ["fromRoot"]),
            child("fine", requires: ["fromRoot"]),
            child("caller", requires: ["own"], callerSupplied: ["own"]),
            child("needy", requires: ["fromRoot", "nobody"]),
            child("selfProvided", requires: ["x"]))
        #expect(found(broken) == exactly((.unprovidedInput, "needy"), (.unprovidedInput, "selfProvided")))
        #expect(broken.problems().first { $0.route == "needy" }?.message.contains("nobody") == true)
    }

    @Test("unprovided_input: a route's own provides do not count for its own requires")
    func ownProvidesDoNotCount() {
        let route = Route("a", parent: "root", presentation: .push, screenType: "a", title: "A", requires: ["x"], provides: ["x"])
        #expect(found(registry(root(), route)) == exactly((.unprovidedInput, "a")))
    }

    @Test("invalid_deep_link: a malformed pattern", arguments: ["no-scheme", "app:/x", "app://", "app://a//b", "app://{id}/{id}", "app://{a", "app://x/{}", "app://a}b"])
    func invalidDeepLink(pattern: String) {
        let broken = registry(root(), child("a", deepLinks: [DeepLinkPattern(pattern)]))
        #expect(found(broken) == exactly((.invalidDeepLink, "a")))
    }

    @Test("ambiguous_deep_link: some URL matches two patterns")
    func ambiguousDeepLink() throws {
        let broken = registry(
            root(), child("byId", deepLinks: ["app://items/{id}"]), child("byName", deepLinks: ["app://items/{name}"]),
            child("new", deepLinks: ["app://items/new"]), child("distinct", deepLinks: ["app://items/{id}/more", "other://items/{id}"]))
        // Reported on the earlier route of each overlapping pair.
        let problems = broken.problems()
        #expect(problems.allSatisfy { $0.kind == .ambiguousDeepLink })
        try #require(problems.map(\.route) == ["byId", "byId", "byName"])
        #expect(problems[0].message.contains("byName") && problems[1].message.contains("new") && problems[2].message.contains("new"))
    }

    @Test("ambiguous_deep_link: two patterns of one route overlap too")
    func ambiguousWithinRoute() {
        #expect(found(registry(root(), child("a", deepLinks: ["app://a/{x}", "APP://a/b"]))) == exactly((.ambiguousDeepLink, "a")))
    }

    @Test("missing_fallback: a fallback is not registered")
    func missingFallback() {
        let broken = registry(root(), child("a", fallback: "ghost"), child("b", fallback: "a"))
        #expect(found(broken) == exactly((.missingFallback, "a")))
    }

    @Test("missing_fallback: fallbacks lead back to the route")
    func fallbackLoop() {
        #expect(found(registry(root(), child("a", fallback: "b"), child("b", fallback: "a"))) == exactly((.missingFallback, "a"), (.missingFallback, "b")))
        #expect(found(registry(root(), child("a", fallback: "a"))) == exactly((.missingFallback, "a")))
    }

    @Test("problems describe themselves with route, message and stable kind")
    func description() {
        let problem = registry(root(), child("a", of: "ghost")).problems()[0]
        #expect(problem.description == "a: has parent ghost, which is not registered [missing_parent]")
        #expect(RouteRegistry<String>().problems()[0].description == "no route is shown as root [no_root]")
    }

    @Test("a guard needs a predicate and a stable code; a guarded route cannot be initial contents")
    func guards() {
        let good = RouteGuard(name: "ready", code: "not_ready", summary: "it is ready")
        var guarded = child("a")
        guarded.routeGuard = good
        // Registered without a predicate.
        #expect(found(registry(root(), guarded)) == exactly((.invalidGuard, "a")))
        var withPredicate = RouteRegistry<String>()
        withPredicate.register(root())
        withPredicate.register(guarded, guard: { _, _ in true })
        #expect(withPredicate.problems().isEmpty)
        var badCode = guarded
        badCode.routeGuard = RouteGuard(name: "ready", code: "Not Ready", summary: "it is ready")
        var badRegistry = RouteRegistry<String>()
        badRegistry.register(root())
        badRegistry.register(badCode, guard: { _, _ in true })
        #expect(Set(badRegistry.problems().map(\.kind)) == [.invalidGuard])
        // The first route of a slot is shown with its container: it cannot have a guard.
        var embedded = child("first", .embed(slot: "main"))
        embedded.routeGuard = good
        var second = child("second", .embed(slot: "main"))
        second.routeGuard = good
        var initial = RouteRegistry<String>()
        initial.register(root(slots: ["main"]))
        initial.register(embedded, guard: { _, _ in true })
        initial.register(second, guard: { _, _ in true })
        #expect(Set(initial.problems().map { Pair(kind: $0.kind, route: $0.route) }) == exactly((.guardedInitialContent, "first")))
    }

}
