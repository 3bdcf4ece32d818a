import RoutemapJSON
import RoutemapNavigation
import Testing

/// How the registry describes itself: a route's JSON (`GET /v1/routes/{routeId}`), the tree
/// (`GET /v1/routes`) and the text `routemap routes` prints.
@Suite("Route descriptions")
struct RouteDescriptionTests {
    @Test("a route's JSON lists every field; fallback and minimumAppVersion only when set")
    func routeJSON() throws {
        let bill = try #require(TestTrees.pos["bill"])
        #expect(
            bill.json.encodedString
                == #"{"id":"bill","parent":"splitContainer","presentation":{"kind":"embed","slot":"secondary"},"screenType":"bill","title":"Bill","renderer":"native","offersDeclarative":false,"slots":[],"requires":["billId"],"callerSupplied":["billId"],"provides":["billId"],"deepLinks":["routemap://bills/{billId}"]}"#
        )
        let root = try #require(TestTrees.pos["tabBar"])
        #expect(root.json["parent"] == .null)
        let route = Route(
            "old", parent: "tabBar", presentation: .push, screenType: "old", title: "Old", fallback: "menu", minimumAppVersion: "2.1")
        #expect(route.json["fallback"] == "menu")
        #expect(route.json["minimumAppVersion"] == "2.1.0")
    }

    @Test("presentations encode by kind", arguments: [
        (Presentation.root, #"{"kind":"root"}"#),
        (.tab, #"{"kind":"tab"}"#),
        (.push, #"{"kind":"push"}"#),
        (.embed(slot: "primary"), #"{"kind":"embed","slot":"primary"}"#),
        (.present(PresentationOptions(style: .modal, inNavigationContainer: true)), #"{"kind":"present","style":"modal","inNavigationContainer":true}"#),
        (.present(PresentationOptions(style: .popover, anchor: "b")), #"{"kind":"present","style":"popover","anchor":"b","inNavigationContainer":false}"#),
    ])
    func presentation(presentation: Presentation, json: String) {
        #expect(presentation.json.encodedString == json)
    }

    @Test("the tree JSON nests children in registration order; one route lists its children's ids")
    func treeJSON() throws {
        let tree = TestTrees.pos.treeJSON(from: "tabBar")
        #expect(tree["id"] == "tabBar")
        let split = try #require(tree["children"]?.arrayValue?.first)
        #expect(split["id"] == "splitContainer")
        #expect(split["children"]?.arrayValue?.map { $0["id"] } == ["menu", "bill"])
        #expect(split["children"]?.arrayValue?[1]["children"]?.arrayValue?.map { $0["id"] } == ["orderSummary"])
        #expect(TestTrees.pos.treeJSON(from: "nope") == .null)
        #expect(TestTrees.pos.routeJSON("bill")?["children"] == ["orderSummary"])
        #expect(TestTrees.pos.routeJSON("menu")?["children"] == [])
        #expect(TestTrees.pos.routeJSON("nope") == nil)
        // The deep tree's JSON holds every route once.
        func ids(_ node: JSON) -> [String] { [node["id"]!.stringValue!] + (node["children"]?.arrayValue ?? []).flatMap(ids) }
        #expect(ids(TestTrees.deep.treeJSON(from: "app")).sorted() == TestTrees.deep.routes.map(\.id.rawValue).sorted())
    }

    @Test("treeText prints the tree, one route per line, with what each needs")
    func treeText() {
        #expect(
            TestTrees.pos.treeText() == """
                tabBar  [root] tabBar "POS"
                  splitContainer  [tab] splitView "Order" slots primary,secondary
                    menu  [embed primary] menu "Menu" links routemap://menu
                    bill  [embed secondary] bill "Bill" requires billId (caller) provides billId links routemap://bills/{billId}
                      orderSummary  [present modal in navigation] orderSummary "Order summary" declarative requires billId links routemap://bills/{billId}/summary
                """)
        let deep = TestTrees.deep.treeText().split(separator: "\n")
        #expect(deep.count == TestTrees.deep.routes.count)
        #expect(deep.contains("          share  [present popover at shareButton] share \"Share\""))
    }

    @Test("treeText lists routes outside the tree last; fallbacks, app versions and offered renderings show")
    func brokenTreeText() {
        var registry = RouteRegistry<String>()
        registry.register(Route("root", parent: nil, presentation: .root, screenType: "root", title: "Root"))
        registry.register(
            Route("a", parent: "root", presentation: .push, screenType: "a", title: "A", offersDeclarative: true, fallback: "root", minimumAppVersion: "2"))
        registry.register(Route("lost", parent: "ghost", presentation: .push, screenType: "lost", title: "Lost"))
        #expect(
            registry.treeText() == """
                root  [root] root "Root"
                  a  [push] a "A" offers declarative fallback root app ≥ 2.0.0
                not reachable from a root:
                  lost  [push] lost "Lost"
                """)
    }
}
