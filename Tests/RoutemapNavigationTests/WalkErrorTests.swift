import RoutemapNavigation
import Testing

/// Requests the navigator refuses: stacks the registry cannot produce, unknown routes, `parent`
/// from the root, `sub` of the root, a missing target.
@Suite("Walk errors")
struct WalkErrorTests {
    let navigator = TestTrees.deepNavigator

    static let invalidStacks: [[String]] = [
        [],
        ["home"],
        ["sub:app"],
        ["app", "feed"],
        ["app", "home", "sub:app"],
        ["app", "library", "folders", "albumList"],
        ["app", "home", "feed", "post", "album"],
        ["app", "settings", "general"],
        ["app", "home", "app"],
    ]

    @Test("a stack the registry cannot produce is invalidStack, whatever the mode", arguments: invalidStacks)
    func invalidStack(from: [String]) {
        for (mode, target) in [(NavigationMode.to, RouteID("home")), (.parent, nil), (.sub, "feed")] as [(NavigationMode, RouteID?)] {
            let error = #expect(throws: NavigationError.self) { try navigator.navigate(from: from, mode, target) }
            guard case .invalidStack = error else {
                Issue.record("\(mode) from \(from): \(String(describing: error)), not invalidStack")
                continue
            }
        }
    }

    @Test("valid stacks: sub entries sit over anything but the root, and routes below them are its children")
    func validStacks() throws {
        for from in [["app"], ["app", "home", "sub:album", "track"], ["app", "settings", "sub:home", "sub:library", "albumList"]] {
            #expect(throws: Never.self) { try navigator.validate(NavigationStack(strings: from)) }
        }
    }

    @Test("unknown route ids, in the stack or as the target, are unknownRoute")
    func unknownRoutes() {
        #expect(throws: NavigationError.unknownRoute("nope")) { try navigator.navigate(from: ["app", "nope"], .to, "home") }
        #expect(throws: NavigationError.unknownRoute("nope")) { try navigator.navigate(from: ["app", "home", "sub:nope"], .parent) }
        #expect(throws: NavigationError.unknownRoute("nope")) { try navigator.navigate(from: ["app", "home"], .to, "nope") }
        #expect(throws: NavigationError.unknownRoute("nope")) { try navigator.navigate(from: ["app", "home"], .sub, "nope") }
    }

    @Test("parent from the root is noParent; sub of the root is rootAsSub; to and sub need a target")
    func otherErrors() {
        #expect(throws: NavigationError.noParent) { try navigator.navigate(from: ["app"], .parent) }
        #expect(throws: NavigationError.noParent) { try navigator.navigate(from: ["app", "settings"], .parent) }
        #expect(throws: NavigationError.rootAsSub) { try navigator.navigate(from: ["app", "home"], .sub, "app") }
        #expect(throws: NavigationError.targetRequired) { try navigator.navigate(from: ["app", "home"], .to) }
        #expect(throws: NavigationError.targetRequired) { try navigator.navigate(from: ["app", "home"], .sub) }
    }
}
