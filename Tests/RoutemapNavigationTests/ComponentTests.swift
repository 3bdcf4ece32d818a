import RoutemapJSON
import RoutemapNavigation
import Synchronization
import Testing

/// Declarative screens (docs/navigation.md, "Declarative screens"): the component vocabulary's
/// JSON, and where components travel in a screen's payload.
@Suite("Components")
struct ComponentTests {
    @Test("each component encodes as {type, …} with only the members it has", arguments: [
        (Component.divider, #"{"type":"divider"}"#),
        (.text("Hello"), #"{"type":"text","text":"Hello","style":"body"}"#),
        (.text("Total", style: .headline), #"{"type":"text","text":"Total","style":"headline"}"#),
        (.text("small", style: .caption), #"{"type":"text","text":"small","style":"caption"}"#),
        (.row(title: "Tax"), #"{"type":"row","title":"Tax"}"#),
        (.row(title: "Tax", value: "1.00"), #"{"type":"row","title":"Tax","value":"1.00"}"#),
        (.row(title: "2 × Latte", detail: "3.50 each", value: "7.00"), #"{"type":"row","title":"2 × Latte","detail":"3.50 each","value":"7.00"}"#),
        (.image(url: "https://x/y.png", alt: "Logo"), #"{"type":"image","url":"https://x/y.png","alt":"Logo"}"#),
        (.button(title: "Pay", action: "pay"), #"{"type":"button","title":"Pay","action":"pay","style":"primary"}"#),
        (.button(title: "Back", action: "cancel", style: .secondary), #"{"type":"button","title":"Back","action":"cancel","style":"secondary"}"#),
        (.button(title: "Void", action: "void", style: .destructive), #"{"type":"button","title":"Void","action":"void","style":"destructive"}"#),
        (
            .button(title: "Remove", action: "removeLine", style: .destructive, item: ["lineId": "line_1"]),
            #"{"type":"button","title":"Remove","action":"removeLine","style":"destructive","item":{"lineId":"line_1"}}"#
        ),
        (
            .button(title: "+1", action: "setQuantity", style: .secondary, item: ["lineId": "line_1"], values: ["quantity": 3]),
            #"{"type":"button","title":"+1","action":"setQuantity","style":"secondary","item":{"lineId":"line_1"},"values":{"quantity":3}}"#
        ),
        (.button(title: "Tip", action: "tip", values: ["percent": 10]), #"{"type":"button","title":"Tip","action":"tip","style":"primary","values":{"percent":10}}"#),
        (.section(title: nil, children: []), #"{"type":"section","children":[]}"#),
        (
            .section(title: "Items", children: [.row(title: "A"), .section(title: nil, children: [.divider])]),
            #"{"type":"section","title":"Items","children":[{"type":"row","title":"A"},{"type":"section","children":[{"type":"divider"}]}]}"#
        ),
    ])
    func encoding(component: Component, json: String) {
        #expect(component.json.encodedString == json)
    }

    @Test("the text and button styles are the documented ones")
    func styles() {
        #expect(Component.TextStyle.allCases.map(\.rawValue) == ["headline", "body", "caption"])
        #expect(Component.ButtonStyle.allCases.map(\.rawValue) == ["primary", "secondary", "destructive"])
    }

    static let components: [Component] = [.section(title: "Bill", children: [.row(title: "Total", value: "9.00")]), .button(title: "Pay", action: "pay")]

    static let registry = RouteRegistry<String> {
        Node("root", .root, screenType: "root", title: "Root") {
            Node(
                "summary", .push, screenType: "summary", title: "Summary", renderer: .declarative,
                payload: { _, _ in ScreenContent(payload: ["totalMinor": 900], actions: [ScreenAction(name: "pay", method: "POST", path: "/pay")], components: { ComponentTests.components }) })
            Node(
                "bill", .push, screenType: "bill", title: "Bill", offersDeclarative: true,
                payload: { _, _ in ScreenContent(payload: ["totalMinor": 900], components: { ComponentTests.components }) })
        }
    }

    @Test("a declarative route's payload carries its components beside its data fields")
    func declarativePayload() throws {
        let navigator = Navigator(registry: Self.registry)
        let screen = try #require(try navigator.navigate(from: ["root"], .to, "summary").steps.first?.screen)
        #expect(screen.renderer == .declarative)
        #expect(screen.payload == ["totalMinor": 900, "components": .array(Self.components.map(\.json))])
        #expect(screen.actions.map(\.name) == ["pay"])
        #expect(screen.json["renderer"] == "declarative")
    }

    @Test("a native route's components are sent only to clients without its native screen, and built only for them")
    func nativeOffersComponents() throws {
        let builds = BuildCounter()
        let registry = RouteRegistry<String> {
            Node("root", .root, screenType: "root", title: "Root") {
                Node(
                    "bill", .push, screenType: "bill", title: "Bill", offersDeclarative: true,
                    payload: { _, _ in
                        // A cached, already encoded payload takes the components too.
                        ScreenContent(payload: .fragment(JSONFragment(["totalMinor": 900]))) {
                            builds.count.add(1, ordering: .relaxed)
                            return ComponentTests.components
                        }
                    })
            }
        }
        let navigator = Navigator(registry: registry)
        let native = try #require(try navigator.navigate(from: ["root"], .to, "bill").steps.first?.screen)
        #expect(native.renderer == .native && native.payload == .fragment(JSONFragment(["totalMinor": 900])))
        #expect(builds.count.load(ordering: .relaxed) == 0, "the tree was built for a client that draws the screen natively")
        let lacking = ClientCapabilities(nativeScreens: ["root"])
        let generic = try #require(try navigator.navigate(from: ["root"], .to, "bill", client: lacking).steps.first?.screen)
        #expect(generic.renderer == .declarative)
        #expect(generic.payload == ["totalMinor": 900, "components": .array(Self.components.map(\.json))])
        #expect(builds.count.load(ordering: .relaxed) == 1)
    }
}

/// How many times a component tree was built (shared with a route's builder).
private final class BuildCounter: Sendable {
    let count = Atomic<Int>(0)
}
