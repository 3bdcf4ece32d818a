import Foundation
import RoutemapJSON
import RoutemapNavigation
import Testing

/// Client capabilities (docs/navigation.md, "Client capabilities"): one test per row of the
/// degradation table, the headers, and `Navigator.verify`.
@Suite("Client capabilities")
struct ClientCapabilityTests {
    /// A registry with one route per degradation to exercise.
    ///
    ///     shell                 root (tabBar)
    ///       main                tab
    ///         fancy             push; native "fancy" from app 2.1, offers a declarative rendering
    ///         legacy            push; native "legacy", falls back to plain
    ///         chained           push; native "chained", falls back to legacy
    ///         plain             push; native "plain"
    ///         bare              push; native "bare", nothing else
    ///         decl              push; declarative
    ///         pop               present popover at "button"
    ///         sheet             present sheet
    ///         full              present fullScreen
    ///         one → two → three push, push, push
    static let registry = RouteRegistry<String> {
        Node("shell", .root, screenType: "tabBar", title: "Shell", payload: echo) {
            Node("main", .tab, screenType: "main", title: "Main", payload: echo) {
                Node("fancy", .push, screenType: "fancy", title: "Fancy", offersDeclarative: true, minimumAppVersion: "2.1", payload: withComponents)
                Node("legacy", .push, screenType: "legacy", title: "Legacy", fallback: "plain", payload: echo)
                Node("chained", .push, screenType: "chained", title: "Chained", fallback: "legacy", payload: echo)
                Node("plain", .push, screenType: "plain", title: "Plain", payload: { _, _ in ScreenContent(payload: ["plain": true]) })
                Node("bare", .push, screenType: "bare", title: "Bare", payload: echo)
                Node("decl", .push, screenType: "decl", title: "Declarative", renderer: .declarative, payload: withComponents)
                Node("pop", .present(PresentationOptions(style: .popover, anchor: "button")), screenType: "pop", title: "Pop", payload: echo)
                Node("sheet", .present(PresentationOptions(style: .sheet, inNavigationContainer: true)), screenType: "sheet", title: "Sheet", payload: echo)
                Node("full", .present(PresentationOptions(style: .fullScreen)), screenType: "full", title: "Full", payload: echo)
                Node("one", .push, screenType: "one", title: "One", payload: echo) {
                    Node("two", .push, screenType: "two", title: "Two", payload: echo) {
                        Node("three", .push, screenType: "three", title: "Three", payload: echo)
                    }
                }
            }
        }
    }

    static let components: [Component] = [.text("Fancy", style: .headline), .button(title: "Go", action: "go")]

    @Sendable static func withComponents(_ inputs: RouteInputs, _ context: String) -> ScreenContent {
        ScreenContent(payload: ["name": "fancy"], components: { components })
    }

    let navigator = Navigator(registry: ClientCapabilityTests.registry)
    let main = ["shell", "main"]
    let allScreens: Set<String> = ["tabBar", "main", "fancy", "legacy", "chained", "plain", "bare", "pop", "sheet", "full", "one", "two", "three"]

    private func client(_ capabilities: String? = nil, screens: String? = nil, version: String? = nil) throws -> ClientCapabilities {
        try ClientCapabilities(capabilities: capabilities, screens: screens, appVersion: version)
    }

    private func screens(without missing: String...) -> String { allScreens.subtracting(missing).sorted().joined(separator: ",") }

    private func show(_ target: RouteID, for client: ClientCapabilities) throws -> Step {
        let steps = try navigator.navigate(from: main, .to, target, client: client).steps
        try #require(steps.count == 1)
        return steps[0]
    }

    static let allOps = "setRoot,selectTab,embed,present,dismiss,push,pop,popTo,replace,refresh"

    @Test("the registry is well formed")
    func wellFormed() { #expect(Self.registry.problems().isEmpty) }

    // MARK: The degradation table, row by row

    @Test("lacking popover: a sheet, anchor dropped")
    func popoverToSheet() throws {
        let step = try show("pop", for: try client(Self.allOps + ",sheet"))
        #expect(step.presentation == PresentationOptions(style: .sheet))
        #expect(try show("pop", for: try client(Self.allOps + ",popover")).presentation == PresentationOptions(style: .popover, anchor: "button"))
    }

    @Test("lacking popover and sheet: a modal, anchor dropped")
    func popoverToModal() throws {
        #expect(try show("pop", for: try client(Self.allOps + ",fullScreen")).presentation == PresentationOptions(style: .modal))
    }

    @Test("lacking sheet: a modal, keeping the navigation container")
    func sheetToModal() throws {
        #expect(try show("sheet", for: try client(Self.allOps)).presentation == PresentationOptions(style: .modal, inNavigationContainer: true))
        #expect(try show("sheet", for: try client(Self.allOps + ",popover")).presentation?.style == .modal)
        #expect(try show("sheet", for: try client(Self.allOps + ",sheet")).presentation?.style == .sheet)
    }

    @Test("lacking fullScreen: a modal")
    func fullScreenToModal() throws {
        #expect(try show("full", for: try client(Self.allOps + ",sheet,popover")).presentation == PresentationOptions(style: .modal))
        #expect(try show("full", for: try client(Self.allOps + ",fullScreen")).presentation?.style == .fullScreen)
    }

    @Test("lacking popTo: one pop per pushed entry removed, top first")
    func popToToPops() throws {
        let from = main + ["one", "two", "three"]
        let everything = try navigator.navigate(from: from, .to, "main")
        #expect(describe(everything.steps) == ["popTo main"])
        let noPopTo = try navigator.navigate(from: from, .to, "main", client: try client(Self.allOps.replacingOccurrences(of: "popTo,", with: "")))
        #expect(describe(noPopTo.steps) == ["pop three", "pop two", "pop one"])
        #expect(noPopTo.stack == everything.stack)
    }

    @Test("lacking refresh: replace, with the new screen and no transition")
    func refreshToReplace() throws {
        let from = main + ["one"]
        #expect(describe(try navigator.navigate(from: from, .to, "one").steps) == ["refresh one"])
        let step = try navigator.navigate(from: from, .to, "one", client: try client(Self.allOps.replacingOccurrences(of: ",refresh", with: ""))).steps
        #expect(describe(step) == ["replace one"])
        #expect(step[0].screen?.type == "one" && step[0].animated == false)
    }

    @Test("lacking a native screen: its declarative rendering, with the components in the payload")
    func declarativeRendering() throws {
        let native = try show("fancy", for: .everything).screen
        #expect(native?.renderer == .native)
        #expect(native?.payload == ["name": "fancy"])
        let step = try show("fancy", for: try client(screens: screens(without: "fancy")))
        #expect(step.route == "fancy")
        #expect(step.screen?.renderer == .declarative)
        #expect(step.screen?.type == "fancy")
        #expect(step.screen?.payload == ["name": "fancy", "components": .array(Self.components.map(\.json))])
        // A declarative route is declarative for every client.
        #expect(try show("decl", for: try client(screens: "")).screen?.renderer == .declarative)
    }

    @Test("lacking a native screen without a declarative rendering: the fallback route's screen; the step keeps its route")
    func fallbackScreen() throws {
        let step = try show("legacy", for: try client(screens: screens(without: "legacy")))
        #expect(step.op == .push && step.route == "legacy")
        #expect(step.screen?.type == "plain" && step.screen?.title == "Plain" && step.screen?.renderer == .native)
        #expect(step.screen?.payload == ["plain": true])
        // Fallbacks are followed until one can be drawn.
        let chained = try show("chained", for: try client(screens: screens(without: "chained", "legacy")))
        #expect(chained.route == "chained" && chained.screen?.type == "plain")
    }

    @Test("nothing the client can draw: unsupportedClient")
    func nothingPossible() throws {
        for (target, missing) in [("bare", ["bare"]), ("legacy", ["legacy", "plain"]), ("chained", ["chained", "legacy", "plain"])] {
            let client = try client(screens: allScreens.subtracting(missing).sorted().joined(separator: ","))
            let error = #expect(throws: NavigationError.self) { try navigator.navigate(from: main, .to, RouteID(target), client: client) }
            guard case .unsupportedClient = error else { Issue.record("\(target): \(String(describing: error))"); continue }
        }
    }

    @Test("an op the client lacks and nothing replaces: unsupportedClient")
    func missingOperation() throws {
        let cases: [(String, [String], RouteID)] = [
            ("push", main, "one"),
            ("dismiss", main + ["sheet"], "main"),
            ("present", main, "full"),
            ("pop", main + ["one"], "main"),
            ("selectTab", ["shell"], "main"),
            ("replace", main + ["one"], "one"),
        ]
        for (op, from, target) in cases {
            // Without the op (and, for replace, without refresh that would otherwise stand in).
            let lacking = Set(StepOperation.allCases).subtracting([StepOperation(rawValue: op)!] + (op == "replace" ? [.refresh] : []))
            let error = #expect(throws: NavigationError.self) {
                try navigator.navigate(from: from, .to, target, client: ClientCapabilities(operations: lacking))
            }
            guard case .unsupportedClient(let reason) = error, reason.contains(op) else {
                Issue.record("without \(op): \(String(describing: error))")
                continue
            }
        }
        #expect(throws: NavigationError.self) {
            try TestTrees.posNavigator.launch(inputs: [:], context: "", client: ClientCapabilities(operations: [.setRoot, .selectTab]))
        }
    }

    // MARK: Headers

    @Test("no headers means everything")
    func noHeaders() throws {
        let none = try client()
        #expect(none == .everything)
        #expect(StepOperation.allCases.allSatisfy(none.performs))
        #expect(PresentationStyle.allCases.allSatisfy(none.shows))
        #expect(Self.registry.routes.allSatisfy(none.drawsNatively))
        let step = try show("pop", for: none)
        #expect(step.presentation == PresentationOptions(style: .popover, anchor: "button"))
    }

    @Test("App-Version below a route's minimumAppVersion counts as lacking its native screen")
    func appVersion() throws {
        for version in ["2.0", "1", "2.0.9", "1.99.99"] {
            #expect(try show("fancy", for: try client(version: version)).screen?.renderer == .declarative, "\(version)")
        }
        for version in ["2.1", "2.1.0", "2.10", "3", " 2.1.1 "] {
            #expect(try show("fancy", for: try client(version: version)).screen?.renderer == .native, "\(version)")
        }
        // Routes without a minimum are native for any version.
        #expect(try show("plain", for: try client(version: "0.1")).screen?.renderer == .native)
    }

    @Test("a malformed App-Version is refused", arguments: ["", " ", "1.2.3.4", "a", "1..2", "1.", ".1", "-1", "1.2b", "v1", "1,2", "１", "1234567890"])
    func malformedAppVersion(version: String) {
        #expect(throws: CapabilityError.invalidAppVersion(version)) { try client(version: version) }
    }

    @Test("versions compare numerically, missing parts are zero")
    func versions() throws {
        func parse(_ text: String) throws -> AppVersion { try #require(AppVersion(text)) }
        #expect(try parse("2.10") > parse("2.9"))
        #expect(try parse("2") == parse("2.0.0"))
        #expect(try parse("1.2.3").description == "1.2.3")
        #expect(try parse("007").components == [7, 0, 0])
        #expect(AppVersion(String("1.x")) == nil)
    }

    @Test("headers: comma-separated tokens, spaces trimmed, unknown tokens ignored, modal always shown")
    func headerParsing() throws {
        let parsed = try client(" push, pop ,\tpresent,sheet, teleport,,fullScreen ,POPOVER", screens: " menu , bill,, ", version: nil)
        #expect(parsed.operations == [.push, .pop, .present])
        #expect(parsed.styles == [.modal, .sheet, .fullScreen])
        #expect(parsed.nativeScreens == ["menu", "bill"])
        #expect(parsed.appVersion == nil)
        #expect(!parsed.performs(.dismiss) && !parsed.shows(.popover) && parsed.shows(.modal))
        let screensOnly = try client(screens: "menu")
        #expect(screensOnly.operations == nil && screensOnly.styles == nil && screensOnly.performs(.popTo))
    }

    // MARK: verify

    @Test("verify: fails unless the client can draw every route and perform every op, after degrading")
    func verify() throws {
        let limited = try client("setRoot,selectTab,push,pop,replace,present", screens: screens(without: "fancy", "legacy"))
        #expect(throws: Never.self) {
            try navigator.verify(limited, canShow: ["fancy", "legacy", "plain", "decl"], performing: [.push, .popTo, .refresh])
        }
        #expect(throws: NavigationError.self) { try navigator.verify(limited, canShow: [], performing: [.dismiss]) }
        #expect(throws: NavigationError.self) { try navigator.verify(limited, canShow: [], performing: [.embed]) }
        let noFallback = try client(screens: screens(without: "legacy", "plain"))
        let error = #expect(throws: NavigationError.self) { try navigator.verify(noFallback, canShow: ["plain", "legacy"], performing: []) }
        guard case .unsupportedClient = error else { Issue.record("\(String(describing: error))"); return }
        #expect(throws: NavigationError.unknownRoute("nope")) { try navigator.verify(.everything, canShow: ["nope"], performing: []) }
        let noPop = ClientCapabilities(operations: [.popTo])
        #expect(throws: NavigationError.self) { try navigator.verify(noPop, canShow: [], performing: [.pop]) }
        #expect(throws: NavigationError.self) { try navigator.verify(ClientCapabilities(operations: [.refresh]), canShow: [], performing: [.popTo]) }
    }

    @Test("rendering picks the native screen, else the declarative one, else the fallback's, else none")
    func rendering() throws {
        let fancy = Self.registry["fancy"]!
        #expect(navigator.rendering(of: fancy, for: .everything)?.renderer == .native)
        #expect(navigator.rendering(of: fancy, for: try client(screens: "")).map { [$0.route.id.rawValue, $0.renderer.rawValue] } == ["fancy", "declarative"])
        let legacy = Self.registry["legacy"]!
        #expect(navigator.rendering(of: legacy, for: try client(screens: "plain")).map { [$0.route.id.rawValue, $0.renderer.rawValue] } == ["plain", "native"])
        #expect(navigator.rendering(of: legacy, for: try client(screens: "")) == nil)
    }
}
