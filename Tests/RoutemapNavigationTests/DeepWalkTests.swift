import RoutemapJSON
import RoutemapNavigation
import Testing

/// Walks over the deeper test tree (`TestTrees.deep`): push stacks inside tabs, a pushed tab
/// container, a tab container presented modally with push stacks in its tabs, a popover, a
/// slot with two alternative routes. Inputs are derived (`derived-<name>`) when not sent.
@Suite("Walks over the deep tree")
struct DeepWalkTests {
    static let comments = ["app", "home", "feed", "post{postId=p1}", "comments{postId=p1}"]
    static let expert = ["app", "settings", "editor", "general", "advanced", "expert"]
    static let album = ["app", "library", "albumList", "album{albumId=a1}"]

    static let rows: [WalkRow] = [
        // Down push stacks, into other tabs; a missing input is derived (and provided upwards).
        WalkRow(
            ["app", "home"], .to, "comments", steps: ["push feed", "push post", "push comments"],
            stack: ["app", "home", "feed", "post{postId=derived-postId}", "comments{postId=derived-postId}"]),
        WalkRow(["app", "home"], .to, "settings", steps: ["selectTab settings"], stack: ["app", "settings"]),
        WalkRow(
            ["app", "home", "feed"], .to, "device", steps: ["pop feed", "selectTab settings", "push account", "push devices", "push device"],
            stack: ["app", "settings", "account", "devices", "device{deviceId=derived-deviceId}"]),
        // Up: one pop for the top, one popTo over several pushes.
        WalkRow(comments, .to, "post", steps: ["pop comments"], stack: ["app", "home", "feed", "post{postId=p1}"]),
        WalkRow(comments, .to, "feed", steps: ["popTo feed"], stack: ["app", "home", "feed"]),
        WalkRow(comments, .to, "home", steps: ["popTo home"], stack: ["app", "home"]),
        // To the root: its selected tab stays in focus.
        WalkRow(comments, .to, "app", steps: ["popTo home"], stack: ["app", "home"]),
        WalkRow(comments, .to, "settings", steps: ["popTo home", "selectTab settings"], stack: ["app", "settings"]),
        WalkRow(comments, .to, "stats", steps: ["popTo feed", "push stats", "selectTab daily"], stack: ["app", "home", "feed", "stats", "daily"]),
        // Dismiss from a presented route, then pops.
        WalkRow(comments + ["share"], .to, "comments", steps: ["dismiss share"], stack: comments),
        WalkRow(comments + ["share"], .to, "feed", steps: ["dismiss share", "popTo feed"], stack: ["app", "home", "feed"]),
        WalkRow(comments + ["share"], .to, "post", steps: ["dismiss share", "pop comments"], stack: ["app", "home", "feed", "post{postId=p1}"]),
        // The embedded route in focus stays in focus.
        WalkRow(
            ["app", "library", "albumList", "album", "track", "lyrics"], .to, "library", steps: ["dismiss lyrics", "popTo albumList"],
            stack: ["app", "library", "albumList"]),
        // The popover, with its anchor.
        WalkRow(comments, .to, "share", steps: ["present share"], stack: comments + ["share"]),
        // To the top: refresh.
        WalkRow(comments, .to, "comments", steps: ["refresh comments"], stack: comments),
        WalkRow(["app", "home"], .to, "home", steps: ["refresh home"], stack: ["app", "home"]),
        // Another post: the post screen is replaced (not popped and pushed), what was over it goes.
        WalkRow(
            comments + ["share"], .to, "comments", input: ["postId": "p2"], steps: ["dismiss share", "pop comments", "replace post", "push comments"],
            stack: ["app", "home", "feed", "post{postId=p2}", "comments{postId=p2}"]),
        // A screen the stack does not say the inputs of is replaced before anything goes over it.
        WalkRow(
            ["app", "home", "feed", "post"], .to, "comments", steps: ["replace post", "push comments"],
            stack: ["app", "home", "feed", "post{postId=derived-postId}", "comments{postId=derived-postId}"]),
        // The pushed tab container: its first tab comes with it; selectTab inside it.
        WalkRow(["app", "home", "feed"], .to, "stats", steps: ["push stats", "selectTab daily"], stack: ["app", "home", "feed", "stats", "daily"]),
        WalkRow(["app", "home", "feed"], .to, "weekly", steps: ["push stats", "selectTab weekly"], stack: ["app", "home", "feed", "stats", "weekly"]),
        WalkRow(
            ["app", "home", "feed", "stats", "daily", "day{day=d1}"], .to, "weekly", steps: ["pop day", "selectTab weekly"],
            stack: ["app", "home", "feed", "stats", "weekly"]),
        WalkRow(["app", "home", "feed", "stats", "weekly"], .to, "feed", steps: ["pop stats"], stack: ["app", "home", "feed"]),
        WalkRow(["app", "home", "feed", "stats", "daily", "day{day=d1}"], .to, "feed", steps: ["popTo feed"], stack: ["app", "home", "feed"]),
        // A container whose focus the stack already lists: no steps.
        WalkRow(["app", "home", "feed", "stats", "weekly"], .to, "stats", steps: [], stack: ["app", "home", "feed", "stats", "weekly"]),
        // The tab container presented modally, with push stacks in its tabs.
        WalkRow(["app", "settings"], .to, "editor", steps: ["present editor", "selectTab general"], stack: ["app", "settings", "editor", "general"]),
        WalkRow(
            ["app", "settings"], .to, "expert", steps: ["present editor", "selectTab general", "push advanced", "push expert"], stack: expert),
        WalkRow(
            ["app", "home"], .to, "permissions",
            steps: ["selectTab settings", "present editor", "selectTab privacy", "push permissions"],
            stack: ["app", "settings", "editor", "privacy", "permissions"]),
        WalkRow(
            expert, .to, "permissionHelp", steps: ["popTo general", "selectTab privacy", "push permissions", "present permissionHelp"],
            stack: ["app", "settings", "editor", "privacy", "permissions", "permissionHelp"]),
        WalkRow(expert, .to, "general", steps: ["popTo general"], stack: ["app", "settings", "editor", "general"]),
        WalkRow(expert, .to, "editor", steps: ["popTo general"], stack: ["app", "settings", "editor", "general"]),
        WalkRow(expert, .to, "home", steps: ["dismiss editor", "selectTab home"], stack: ["app", "home"]),
        WalkRow(
            ["app", "settings", "editor", "privacy", "permissions", "permissionHelp"], .to, "account",
            steps: ["dismiss editor", "push account"], stack: ["app", "settings", "account"]),
        // The slot with two alternatives: always an embed, which moves the focus; the sole route
        // of a slot on display gets a replace, which lists it and moves the focus.
        WalkRow(
            ["app", "home"], .to, "album", steps: ["selectTab library", "embed folders", "embed albumList", "push album"],
            stack: ["app", "library", "albumList", "album{albumId=derived-albumId}"]),
        WalkRow(["app", "home"], .to, "library", steps: ["selectTab library", "embed folders", "embed albumGrid"], stack: ["app", "library", "albumGrid"]),
        WalkRow(["app", "library"], .to, "albumList", steps: ["embed albumList"], stack: ["app", "library", "albumList"]),
        WalkRow(["app", "library", "albumList"], .to, "albumGrid", steps: ["embed albumGrid"], stack: ["app", "library", "albumGrid"]),
        WalkRow(["app", "library", "albumList"], .to, "folders", steps: ["replace folders"], stack: ["app", "library", "folders"]),
        WalkRow(album, .to, "albumGrid", steps: ["pop album", "embed albumGrid"], stack: ["app", "library", "albumGrid"]),
        WalkRow(album, .to, "folders", steps: ["pop album", "replace folders"], stack: ["app", "library", "folders"]),
        WalkRow(album, .to, "albumList", steps: ["pop album"], stack: ["app", "library", "albumList"]),
        // The presented container with slots: its contents come with it, the focus on the last.
        WalkRow(
            ["app", "library", "folders"], .to, "player", steps: ["present player", "embed artwork", "embed controls"],
            stack: ["app", "library", "player", "controls"]),
        WalkRow(["app", "library", "player"], .to, "controls", steps: ["replace controls"], stack: ["app", "library", "player", "controls"]),
        WalkRow(["app", "library", "player", "controls"], .to, "artwork", steps: ["replace artwork"], stack: ["app", "library", "player", "artwork"]),
        WalkRow(["app", "library", "player", "controls"], .to, "folders", steps: ["dismiss player", "replace folders"], stack: ["app", "library", "folders"]),
        // A sheet in a navigation container, with a push inside it.
        WalkRow(["app", "home", "feed"], .to, "results", steps: ["pop feed", "present search", "push results"], stack: ["app", "home", "search", "results"]),
        // parent: the top screen leaves, with its tabs and embedded routes.
        WalkRow(comments, .parent, steps: ["pop comments"], stack: ["app", "home", "feed", "post{postId=p1}"]),
        WalkRow(comments + ["share"], .parent, steps: ["dismiss share"], stack: comments),
        WalkRow(["app", "home", "feed", "stats", "daily"], .parent, steps: ["pop stats"], stack: ["app", "home", "feed"]),
        WalkRow(["app", "settings", "editor", "privacy"], .parent, steps: ["dismiss editor"], stack: ["app", "settings"]),
        WalkRow(expert, .parent, steps: ["pop expert"], stack: ["app", "settings", "editor", "general", "advanced"]),
        WalkRow(["app", "library", "player", "controls"], .parent, steps: ["dismiss player"], stack: ["app", "library"]),
        // sub: over the top as declared, the step marked sub; a tab or embedded route as a modal
        // in a navigation container.
        WalkRow(
            ["app", "home", "feed", "post{postId=p1}"], .sub, "album", steps: ["push sub:album"],
            stack: ["app", "home", "feed", "post{postId=p1}", "sub:album{albumId=derived-albumId}"]),
        WalkRow(["app", "home", "feed"], .sub, "post", steps: ["push sub:post"], stack: ["app", "home", "feed", "sub:post{postId=derived-postId}"]),
        // A sub entry's inputs come from the stack below it when it provides them.
        WalkRow(
            ["app", "home", "feed", "post{postId=p1}"], .sub, "comments", steps: ["push sub:comments"],
            stack: ["app", "home", "feed", "post{postId=p1}", "sub:comments{postId=p1}"]),
        WalkRow(
            ["app", "home", "feed"], .sub, "library", steps: ["present sub:library", "embed folders", "embed albumGrid"],
            stack: ["app", "home", "feed", "sub:library", "albumGrid"]),
        WalkRow(["app", "home"], .sub, "editor", steps: ["present sub:editor", "selectTab general"], stack: ["app", "home", "sub:editor", "general"]),
        WalkRow(["app", "home"], .sub, "stats", steps: ["push sub:stats", "selectTab daily"], stack: ["app", "home", "sub:stats", "daily"]),
        WalkRow(["app", "settings"], .sub, "share", steps: ["present sub:share"], stack: ["app", "settings", "sub:share"]),
        // ... and parent goes back to from.
        WalkRow(
            ["app", "home", "feed", "post{postId=p1}", "sub:album{albumId=a1}"], .parent, steps: ["pop album"],
            stack: ["app", "home", "feed", "post{postId=p1}"]),
        WalkRow(["app", "home", "feed", "sub:library", "albumGrid"], .parent, steps: ["dismiss library"], stack: ["app", "home", "feed"]),
        WalkRow(["app", "home", "sub:editor", "general"], .parent, steps: ["dismiss editor"], stack: ["app", "home"]),
        WalkRow(["app", "home", "sub:stats", "daily"], .parent, steps: ["pop stats"], stack: ["app", "home"]),
        // to inside a sub entry's subtree stays inside it, the sub entry providing its inputs.
        WalkRow(
            ["app", "home", "feed", "post{postId=p1}", "sub:album{albumId=a1}"], .to, "lyrics", steps: ["push track", "present lyrics"],
            stack: ["app", "home", "feed", "post{postId=p1}", "sub:album{albumId=a1}", "track{albumId=a1,trackId=derived-trackId}", "lyrics"]),
        WalkRow(
            ["app", "home", "feed", "post{postId=p1}", "sub:album{albumId=a1}", "track{albumId=a1,trackId=t1}", "lyrics"], .to, "album",
            steps: ["dismiss lyrics", "pop track"], stack: ["app", "home", "feed", "post{postId=p1}", "sub:album{albumId=a1}"]),
        WalkRow(
            ["app", "home", "feed", "post{postId=p1}", "sub:album{albumId=a1}", "track{albumId=a1,trackId=t1}"], .parent, steps: ["pop track"],
            stack: ["app", "home", "feed", "post{postId=p1}", "sub:album{albumId=a1}"]),
        WalkRow(
            ["app", "home", "feed", "sub:library"], .to, "album", steps: ["embed albumList", "push album"],
            stack: ["app", "home", "feed", "sub:library", "albumList", "album{albumId=derived-albumId}"]),
        WalkRow(
            ["app", "home", "sub:editor", "general", "advanced", "expert"], .to, "permissions",
            steps: ["popTo general", "selectTab privacy", "push permissions"], stack: ["app", "home", "sub:editor", "privacy", "permissions"]),
        WalkRow(
            ["app", "home", "sub:editor", "general"], .to, "editor", steps: [], stack: ["app", "home", "sub:editor", "general"]),
        // Another album below the sub entry: the sub entry goes (a walk never opens one again).
        WalkRow(
            ["app", "library", "albumList", "album{albumId=a1}", "sub:album{albumId=a1}"], .to, "track", input: ["albumId": "a2", "trackId": "t1"],
            steps: ["pop album", "replace album", "push track"],
            stack: ["app", "library", "albumList", "album{albumId=a2}", "track{albumId=a2,trackId=t1}"]),
        // to outside the sub subtree removes the sub entry.
        WalkRow(
            ["app", "home", "feed", "post{postId=p1}", "sub:album{albumId=a1}", "track{albumId=a1,trackId=t1}"], .to, "settings",
            steps: ["popTo home", "selectTab settings"], stack: ["app", "settings"]),
        WalkRow(
            ["app", "home", "feed", "sub:library", "albumList", "album{albumId=a1}"], .to, "home", steps: ["dismiss library", "pop feed"],
            stack: ["app", "home"]),
        WalkRow(
            ["app", "home", "sub:editor", "general", "advanced"], .to, "general", steps: ["pop advanced"],
            stack: ["app", "home", "sub:editor", "general"]),
    ]

    @Test("walk table", arguments: rows)
    func walk(row: WalkRow) throws {
        try row.check(TestTrees.deepNavigator, registry: TestTrees.deep)
    }

    @Test("the popover keeps its anchor; the sheet its navigation container; a tab opened with sub is a modal in one")
    func presentations() throws {
        let navigator = TestTrees.deepNavigator
        let share = try navigator.navigate(from: Self.comments, .to, "share").steps[0]
        #expect(share.presentation == PresentationOptions(style: .popover, anchor: "shareButton"))
        let search = try navigator.navigate(from: ["app", "home"], .to, "search").steps[0]
        #expect(search.presentation == PresentationOptions(style: .sheet, inNavigationContainer: true))
        let sub = try navigator.navigate(from: ["app", "home"], .sub, "library").steps[0]
        #expect(sub.op == .present && sub.presentation == PresentationOptions(style: .modal, inNavigationContainer: true))
        let editor = try navigator.navigate(from: ["app", "settings"], .to, "editor").steps[0]
        #expect(editor.tabs == [Tab(route: "general", title: "General"), Tab(route: "privacy", title: "Privacy")])
        #expect(try navigator.navigate(from: ["app", "home", "feed"], .to, "stats").steps[0].tabs?.map(\.route) == ["daily", "weekly"])
    }

    @Test("launch: the root with its tabs and the first tab")
    func launch() throws {
        let launch = try TestTrees.deepNavigator.launch(inputs: [:], context: "")
        #expect(describe(launch.steps) == ["setRoot app", "selectTab home"])
        #expect(launch.steps[0].tabs?.map(\.route) == ["home", "library", "settings"])
        #expect(strings(launch.stack) == ["app", "home"])
    }

    @Test("sub then parent returns exactly to from, for every route over several stacks")
    func subThenParent() throws {
        let navigator = TestTrees.deepNavigator
        let stacks = [
            ["app", "home"], Self.comments, Self.expert, Self.album, ["app", "home", "feed", "stats", "weekly"], ["app", "library", "player", "controls"],
        ]
        for from in stacks {
            for route in TestTrees.deep.routes where route.presentation != .root {
                let sub = try navigator.navigate(from: from, .sub, route.id)
                let back = try navigator.navigate(from: strings(sub.stack), .parent)
                #expect(strings(back.stack) == from, "sub \(route.id) from \(from)")
                #expect(describe(back.steps).count == 1, "sub \(route.id) from \(from): \(describe(back.steps))")
            }
        }
    }

    @Test("parent from the root's screen (the root and its tabs and embedded routes) has no parent")
    func noParent() {
        for from in [["app"], ["app", "home"], ["app", "library"], ["app", "library", "albumList"]] {
            #expect(throws: NavigationError.noParent) { try TestTrees.deepNavigator.navigate(from: from, .parent) }
        }
    }
}
