import RoutemapJSON
import RoutemapNavigation
import RoutemapPOS
import RoutemapTrivia

/// The registries the navigation tests walk, and small helpers to write stacks and steps tersely.
///
/// Every builder echoes the inputs and the context it received into its payload
/// (`{"inputs": {…}, "context": …}`), so a test can assert exactly what a builder saw.
typealias Node = RouteNode<String>

@Sendable func echo(_ inputs: RouteInputs, _ context: String) -> ScreenContent {
    ScreenContent(payload: ["inputs": echoed(inputs), "context": .string(context)], inputs: inputs)
}

/// The inputs as the JSON object `echo` puts in a payload.
func echoed(_ inputs: RouteInputs) -> JSON {
    .object(JSONObject(inputs.sorted { $0.key < $1.key }.map { ($0.key, JSON.string($0.value)) }))
}

enum TestTrees {
    /// Shaped like the point-of-sale app (Sources/RoutemapAPI/POSNavigation.swift):
    ///
    ///     tabBar                      root
    ///       splitContainer            tab, slots primary/secondary
    ///         menu                    embed primary
    ///         bill                    embed secondary; requires billId (caller), provides billId
    ///           orderSummary          present modal in a navigation container; requires billId
    static let pos = RouteRegistry<String> {
        Node("tabBar", .root, screenType: "tabBar", title: "POS", payload: echo) {
            Node("splitContainer", .tab, screenType: "splitView", title: "Order", slots: ["primary", "secondary"], payload: echo) {
                Node("menu", .embed(slot: "primary"), screenType: "menu", title: "Menu", deepLinks: ["routemap://menu"], payload: echo)
                Node(
                    "bill", .embed(slot: "secondary"), screenType: "bill", title: "Bill", requires: ["billId"],
                    callerSupplied: ["billId"], provides: ["billId"], deepLinks: ["routemap://bills/{billId}"], payload: echo
                ) {
                    Node(
                        "orderSummary", .present(PresentationOptions(style: .modal, inNavigationContainer: true)),
                        screenType: "orderSummary", title: "Order summary", renderer: .declarative, requires: ["billId"],
                        deepLinks: ["routemap://bills/{billId}/summary"], payload: echo)
                }
            }
        }
    }

    /// A deeper app: several tabs, push stacks inside tabs, a pushed tab container, a tab
    /// container presented modally with its own tabs and push stacks, a presented container
    /// with slots, a popover with an anchor, a slot with two alternative routes, deep links.
    ///
    ///     app                         root (tabBar)
    ///       home                      tab
    ///         feed                    push                      app://feed
    ///           post                  push; postId (caller)     app://posts/{postId}
    ///             comments            push; postId              app://posts/{postId}/comments
    ///               share             present popover at shareButton
    ///           stats                 push; a tab container
    ///             daily               tab
    ///               day               push; day (caller)        app://stats/days/{day}
    ///             weekly              tab
    ///         search                  present sheet in navigation  app://search
    ///           results               push
    ///       library                   tab; slots sidebar/content
    ///         folders                 embed sidebar
    ///         albumGrid               embed content (first of two alternatives)
    ///         albumList               embed content
    ///           album                 push; albumId (caller)    app://albums/{albumId}
    ///             track               push; trackId (caller)    app://albums/{albumId}/tracks/{trackId}
    ///               lyrics            present fullScreen
    ///         player                  present modal; slots art/controls
    ///           artwork               embed art
    ///           controls              embed controls
    ///       settings                  tab
    ///         account                 push
    ///           devices               push
    ///             device              push; deviceId (caller)   app://devices/{deviceId}
    ///         editor                  present modal in navigation; a tab container
    ///           general               tab
    ///             advanced            push                      app://editor/advanced
    ///               expert            push
    ///           privacy               tab
    ///             permissions         push
    ///               permissionHelp    present sheet
    static let deep = RouteRegistry<String> {
        Node("app", .root, screenType: "tabBar", title: "App", payload: echo) {
            Node("home", .tab, screenType: "home", title: "Home", payload: echo) {
                Node("feed", .push, screenType: "feed", title: "Feed", deepLinks: ["app://feed"], payload: echo) {
                    Node(
                        "post", .push, screenType: "post", title: "Post", requires: ["postId"], callerSupplied: ["postId"],
                        provides: ["postId"], deepLinks: ["app://posts/{postId}"], payload: echo
                    ) {
                        Node(
                            "comments", .push, screenType: "comments", title: "Comments", requires: ["postId"],
                            deepLinks: ["app://posts/{postId}/comments"], payload: echo
                        ) {
                            Node(
                                "share", .present(PresentationOptions(style: .popover, anchor: "shareButton")), screenType: "share",
                                title: "Share", payload: echo)
                        }
                    }
                    Node("stats", .push, screenType: "stats", title: "Stats", payload: echo) {
                        Node("daily", .tab, screenType: "daily", title: "Daily", payload: echo) {
                            Node(
                                "day", .push, screenType: "day", title: "Day", requires: ["day"], callerSupplied: ["day"],
                                deepLinks: ["app://stats/days/{day}"], payload: echo)
                        }
                        Node("weekly", .tab, screenType: "weekly", title: "Weekly", payload: echo)
                    }
                }
                Node(
                    "search", .present(PresentationOptions(style: .sheet, inNavigationContainer: true)), screenType: "search",
                    title: "Search", deepLinks: ["app://search"], payload: echo
                ) {
                    Node("results", .push, screenType: "results", title: "Results", payload: echo)
                }
            }
            Node("library", .tab, screenType: "splitView", title: "Library", slots: ["sidebar", "content"], payload: echo) {
                Node("folders", .embed(slot: "sidebar"), screenType: "folders", title: "Folders", payload: echo)
                Node("albumGrid", .embed(slot: "content"), screenType: "albumGrid", title: "Albums", payload: echo)
                Node("albumList", .embed(slot: "content"), screenType: "albumList", title: "Albums", payload: echo) {
                    Node(
                        "album", .push, screenType: "album", title: "Album", requires: ["albumId"], callerSupplied: ["albumId"],
                        provides: ["albumId"], deepLinks: ["app://albums/{albumId}"], payload: echo
                    ) {
                        Node(
                            "track", .push, screenType: "track", title: "Track", requires: ["albumId", "trackId"],
                            callerSupplied: ["trackId"], deepLinks: ["app://albums/{albumId}/tracks/{trackId}"], payload: echo
                        ) {
                            Node("lyrics", .present(PresentationOptions(style: .fullScreen)), screenType: "lyrics", title: "Lyrics", payload: echo)
                        }
                    }
                }
                Node(
                    "player", .present(PresentationOptions(style: .modal)), screenType: "player", title: "Player",
                    slots: ["art", "controls"], payload: echo
                ) {
                    Node("artwork", .embed(slot: "art"), screenType: "artwork", title: "Artwork", payload: echo)
                    Node("controls", .embed(slot: "controls"), screenType: "controls", title: "Controls", payload: echo)
                }
            }
            Node("settings", .tab, screenType: "settings", title: "Settings", payload: echo) {
                Node("account", .push, screenType: "account", title: "Account", payload: echo) {
                    Node("devices", .push, screenType: "devices", title: "Devices", payload: echo) {
                        Node(
                            "device", .push, screenType: "device", title: "Device", requires: ["deviceId"], callerSupplied: ["deviceId"],
                            deepLinks: ["app://devices/{deviceId}"], payload: echo)
                    }
                }
                Node(
                    "editor", .present(PresentationOptions(style: .modal, inNavigationContainer: true)), screenType: "editor",
                    title: "Editor", payload: echo
                ) {
                    Node("general", .tab, screenType: "general", title: "General", payload: echo) {
                        Node("advanced", .push, screenType: "advanced", title: "Advanced", deepLinks: ["app://editor/advanced"], payload: echo) {
                            Node("expert", .push, screenType: "expert", title: "Expert", payload: echo)
                        }
                    }
                    Node("privacy", .tab, screenType: "privacy", title: "Privacy", payload: echo) {
                        Node("permissions", .push, screenType: "permissions", title: "Permissions", payload: echo) {
                            Node(
                                "permissionHelp", .present(PresentationOptions(style: .sheet)), screenType: "permissionHelp",
                                title: "Help", payload: echo)
                        }
                    }
                }
            }
        }
    }

    /// Derives every input as `derived-<name>`, so any walk has the inputs it needs.
    /// `pos` with guards: the order summary only for a bill whose id starts with "ready"; and
    /// `deep` with the post screen only for a post whose id is not "hidden", and the
    /// settings' devices screen never (a guard on a route without inputs).
    static let guardedPOS = guarded(pos, ["orderSummary": readyBill])
    static let guardedDeep = guarded(deep, ["post": visiblePost, "devices": never])

    static let readyBill = GuardedBy<String>(RouteGuard(name: "billReady", code: "bill_not_ready", summary: "the bill is ready")) { inputs, _ in
        inputs["billId"]?.hasPrefix("ready") == true
    }
    static let visiblePost = GuardedBy<String>(RouteGuard(name: "postVisible", code: "post_hidden", summary: "the post is visible")) { inputs, _ in
        inputs["postId"] != "hidden"
    }
    static let never = GuardedBy<String>(RouteGuard(name: "never", code: "never", summary: "never")) { _, _ in false }

    /// `registry` with `guards` added to its routes (same routes, same builders: `echo`).
    static func guarded(_ registry: RouteRegistry<String>, _ guards: [RouteID: GuardedBy<String>]) -> RouteRegistry<String> {
        var copy = RouteRegistry<String>()
        for var route in registry.routes {
            let guardedBy = guards[route.id]
            route.routeGuard = guardedBy?.routeGuard
            copy.register(route, payload: echo, guard: guardedBy?.holds)
        }
        return copy
    }

    /// The shipped apps' trees, route for route (guards left out: their predicates read the
    /// apps' data), every builder `echo`: the walks are checked over the real shapes too.
    static let trivia = echoing(TriviaApp.registry)
    static let shippedPOS = echoing(POSApp.registry)

    /// `registry`'s routes without their guards, each with `echo` as its builder.
    static func echoing<Context>(_ registry: RouteRegistry<Context>) -> RouteRegistry<String> {
        var copy = RouteRegistry<String>()
        for var route in registry.routes {
            route.routeGuard = nil
            copy.register(route, payload: echo)
        }
        return copy
    }

    static let deriveAll: Navigator<String>.InputDeriver = { name, _ in "derived-\(name)" }

    static let posNavigator = Navigator(registry: pos) { name, _ in name == "billId" ? "current-bill" : nil }
    static let deepNavigator = Navigator(registry: deep, deriveInput: deriveAll)
}

extension StackEntry {
    /// An entry written as its `description`: `bill`, `sub:bill`, `bill{billId=b1,other=x}`.
    init(described text: String) {
        guard let brace = text.firstIndex(of: "{"), text.hasSuffix("}") else {
            self.init(parsing: text)
            return
        }
        self.init(parsing: String(text[..<brace]))
        for pair in text[text.index(after: brace)..<text.index(before: text.endIndex)].split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            inputs[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
    }
}

extension NavigationStack {
    /// A stack written as entry descriptions: route ids, `sub:` marking entries opened with
    /// `sub`, inputs in braces (`bill{billId=b1}`).
    init(strings: [String]) { self.init(strings.map(StackEntry.init(described:))) }
}

/// The stack as entry descriptions (`bill{billId=b1}`), the form the tables use.
func strings(_ stack: NavigationStack) -> [String] { stack.entries.map(\.description) }

/// Steps as `"op route"`, the form the tables use (`"present sub:bill"` for a step with `sub`).
func describe(_ steps: [Step]) -> [String] { steps.map { "\($0.op.rawValue) \($0.sub ? "sub:" : "")\($0.route)" } }

extension Navigator where Context == String {
    func navigate(
        from: [String], _ mode: NavigationMode = .to, _ target: RouteID? = nil, input: RouteInputs = [:],
        client: ClientCapabilities = .everything, context: String = "ctx"
    ) throws -> Navigation {
        try navigate(NavigationRequest(from: NavigationStack(strings: from), mode: mode, target: target, input: input), context: context, client: client)
    }
}
