import RoutemapJSON
import RoutemapNavigation
import Synchronization
import Testing

/// Inputs (docs/navigation.md, "Inputs"): only those the target stack's routes require pass to
/// the builders; a missing one is derived by the navigator's `deriveInput` or is `missingInput`;
/// steps that show no screen need none.
@Suite("Inputs")
struct InputTests {
    /// The deep tree without a deriver: every input must be sent or on the stack.
    let strict = Navigator(registry: TestTrees.deep)
    static let comments = ["app", "home", "feed", "post{postId=p1}", "comments{postId=p1}"]

    private func inputs(_ step: Step) -> JSON? { step.screen?.payload["inputs"] }

    @Test("a required input neither sent, nor on the stack, nor derivable is missingInput naming it and its route")
    func missingInput() {
        #expect(throws: NavigationError.missingInput(name: "postId", route: "post")) { try strict.navigate(from: ["app", "home"], .to, "post") }
        #expect(throws: NavigationError.missingInput(name: "postId", route: "post")) { try strict.navigate(from: ["app", "home"], .to, "comments") }
        // A post the stack does not say the postId of is replaced before anything goes over it: it needs one.
        #expect(throws: NavigationError.missingInput(name: "postId", route: "post")) {
            try strict.navigate(from: ["app", "home", "feed", "post"], .to, "comments")
        }
        #expect(throws: NavigationError.missingInput(name: "albumId", route: "album")) {
            try strict.navigate(from: ["app", "library", "albumList", "album"], .to, "track", input: ["trackId": "t1"])
        }
        #expect(throws: NavigationError.missingInput(name: "deviceId", route: "device")) {
            try strict.navigate(from: ["app", "home"], .sub, "device")
        }
        let deriveNothing = Navigator(registry: TestTrees.deep) { _, _ in nil }
        #expect(throws: NavigationError.missingInput(name: "postId", route: "post")) { try deriveNothing.navigate(from: ["app", "home"], .to, "post") }
    }

    @Test("an input an entry below provides reaches the screens above it")
    func providedInputs() throws {
        let comments = try strict.navigate(from: ["app", "home", "feed", "post{postId=p1}"], .to, "comments")
        #expect(describe(comments.steps) == ["push comments"])
        #expect(comments.steps.map(inputs) == [["postId": "p1"]])
        #expect(strings(comments.stack) == Self.comments)
        let track = try strict.navigate(from: ["app", "library", "albumList", "album{albumId=a1}"], .to, "track", input: ["trackId": "t1"])
        #expect(track.steps.map(inputs) == [["albumId": "a1", "trackId": "t1"]])
        // The request wins over what an entry below provides (and replaces that entry).
        let other = try strict.navigate(from: ["app", "library", "albumList", "album{albumId=a1}"], .to, "track", input: ["albumId": "a2", "trackId": "t1"])
        #expect(describe(other.steps) == ["replace album", "push track"])
        #expect(other.steps.map(inputs) == [["albumId": "a2"], ["albumId": "a2", "trackId": "t1"]])
    }

    @Test("sent inputs reach the builders of the screens that require them, and only those")
    func sentInputs() throws {
        let steps = try strict.navigate(from: ["app", "home"], .to, "comments", input: ["postId": "p1"]).steps
        #expect(steps.map(inputs) == [[:], ["postId": "p1"], ["postId": "p1"]])
        #expect(steps.allSatisfy { $0.screen?.payload["context"] == "ctx" })
        // The screens' inputs: what their routes require and provide.
        #expect(steps.map { $0.screen?.inputs } == [[:], ["postId": "p1"], ["postId": "p1"]])
    }

    @Test("inputs the target stack's routes do not require are dropped before any builder sees them")
    func undeclaredInputsDropped() throws {
        let input: RouteInputs = ["postId": "p1", "albumId": "a1", "junk": "x"]
        let steps = try strict.navigate(from: ["app", "home"], .to, "post", input: input).steps
        #expect(describe(steps) == ["push feed", "push post"])
        #expect(steps.map(inputs) == [[:], ["postId": "p1"]])
        // The sub entry's route declares what passes.
        let sub = try strict.navigate(from: ["app", "home", "feed", "post{postId=p1}"], .sub, "album", input: input).steps
        #expect(sub.map(inputs) == [["albumId": "a1"]])
        // Only the routes of the target stack count: a route shown as a container's initial
        // contents (the POS bill beside the menu) gets no sent input; it gets a derived one.
        let pos = try TestTrees.posNavigator.navigate(from: ["tabBar"], .to, "menu", input: ["billId": "b9"]).steps
        #expect(describe(pos) == ["selectTab splitContainer", "embed bill", "embed menu"])
        #expect(pos.map(inputs) == [[:], ["billId": "current-bill"], [:]])
    }

    @Test("a missing input is derived once, from the request's context, and reaches later screens too")
    func derivation() throws {
        let asked = Mutex<[String]>([])
        let navigator = Navigator(registry: TestTrees.deep) { name, context in
            asked.withLock { $0.append(name) }
            return name == "postId" ? "derived-for-\(context)" : nil
        }
        let steps = try navigator.navigate(from: ["app", "home"], .to, "comments", context: "device-7").steps
        #expect(steps.compactMap(inputs) == [[:], ["postId": "derived-for-device-7"], ["postId": "derived-for-device-7"]])
        #expect(asked.withLock { $0 } == ["postId"])
        // A sent input is not derived.
        asked.withLock { $0 = [] }
        _ = try navigator.navigate(from: ["app", "home"], .to, "comments", input: ["postId": "p1"])
        #expect(asked.withLock { $0 }.isEmpty)
        // What cannot be derived is still missing.
        #expect(throws: NavigationError.missingInput(name: "deviceId", route: "device")) {
            try navigator.navigate(from: ["app", "settings"], .to, "device")
        }
    }

    @Test("errors of the deriver reach the caller")
    func deriverErrors() {
        struct Unavailable: Error {}
        let navigator = Navigator(registry: TestTrees.deep) { _, _ in throw Unavailable() }
        #expect(throws: Unavailable.self) { try navigator.navigate(from: ["app", "home"], .to, "post") }
    }

    @Test("a bill the stack lists keeps what it shows: a derived input never replaces it, a named one does")
    func listedBillKept() throws {
        let kept = try TestTrees.posNavigator.navigate(from: ["tabBar", "splitContainer", "bill{billId=b5}"], .to, "orderSummary")
        #expect(describe(kept.steps) == ["present orderSummary"])
        #expect(kept.steps[0].screen?.inputs == ["billId": "b5"])
        let named = try TestTrees.posNavigator.navigate(from: ["tabBar", "splitContainer", "bill{billId=b5}"], .to, "orderSummary", input: ["billId": "b2"])
        #expect(describe(named.steps) == ["replace bill", "present orderSummary"])
        #expect(named.steps.map(inputs) == [["billId": "b2"], ["billId": "b2"]])
    }

    @Test("steps that show no screen need no input", arguments: [
        (InputTests.comments, NavigationMode.to, RouteID?.some("feed"), ["popTo feed"]),
        (InputTests.comments, .to, "post", ["pop comments"]),
        (InputTests.comments, .parent, nil, ["pop comments"]),
        (InputTests.comments + ["share"], .to, "comments", ["dismiss share"]),
        (InputTests.comments + ["share"], .to, "home", ["dismiss share", "popTo home"]),
        (["app", "home", "feed", "stats", "daily", "day"], .to, "daily", ["pop day"]),
        (["app", "library", "albumList", "album", "track"], .to, "folders", ["popTo albumList", "replace folders"]),
    ] as [([String], NavigationMode, RouteID?, [String])])
    func noInputWithoutScreens(from: [String], mode: NavigationMode, target: RouteID?, steps: [String]) throws {
        #expect(describe(try strict.navigate(from: from, mode, target).steps) == steps)
    }

    @Test("an embedded route on display the stack does not list is replaced, so it needs its inputs")
    func unlistedNeedsInputs() throws {
        let pos = Navigator(registry: TestTrees.pos)
        #expect(throws: NavigationError.missingInput(name: "billId", route: "bill")) {
            try pos.navigate(from: ["tabBar", "splitContainer", "menu"], .to, "bill")
        }
        let named = try pos.navigate(from: ["tabBar", "splitContainer", "menu"], .to, "bill", input: ["billId": "b1"])
        #expect(describe(named.steps) == ["replace bill"])
        #expect(strings(named.stack) == ["tabBar", "splitContainer", "bill{billId=b1}"])
        // Listed with its inputs, it refreshes with them.
        let refresh = try pos.navigate(from: ["tabBar", "splitContainer", "bill{billId=b1}"], .to, "bill")
        #expect(describe(refresh.steps) == ["refresh bill"])
        #expect(refresh.steps[0].screen?.inputs == ["billId": "b1"])
    }
}
