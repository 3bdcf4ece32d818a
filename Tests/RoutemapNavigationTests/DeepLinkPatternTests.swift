import RoutemapNavigation
import Testing

/// Deep-link patterns (docs/navigation.md, "Deep links"): matching, overlaps, defects, and
/// resolving a URL against a registry.
@Suite("Deep links")
struct DeepLinkPatternTests {
    static let summary: DeepLinkPattern = "routemap://bills/{billId}/summary"

    @Test("a pattern parses into its scheme and literal and placeholder segments")
    func parsing() {
        let pattern = Self.summary
        #expect(pattern.scheme == "routemap")
        #expect(pattern.segments == [.literal("bills"), .placeholder("billId"), .literal("summary")])
        #expect(pattern.defect == nil)
        #expect(pattern.description == "routemap://bills/{billId}/summary")
    }

    @Test("placeholders become values", arguments: [
        ("routemap://bills/{billId}/summary", "routemap://bills/b1/summary", ["billId": "b1"]),
        ("routemap://menu", "routemap://menu", [:]),
        ("app://albums/{albumId}/tracks/{trackId}", "app://albums/a-1/tracks/t_9", ["albumId": "a-1", "trackId": "t_9"]),
        ("app://{section}", "app://anything", ["section": "anything"]),
    ] as [(String, String, [String: String])])
    func match(pattern: String, url: String, values: [String: String]) {
        #expect(DeepLinkPattern(pattern).match(url) == values)
    }

    @Test("segments are percent-decoded before they are compared or captured")
    func percentDecoding() {
        #expect(Self.summary.match("routemap://bills/a%20b%2Fc/summary") == ["billId": "a b/c"])
        #expect(Self.summary.match("routemap://bills/caf%C3%A9/summary") == ["billId": "café"])
        #expect(Self.summary.match("routemap://%62ills/b1/summary") == ["billId": "b1"])
        #expect(DeepLinkPattern("app://café").match("app://caf%c3%a9") == [:])
        // Malformed escapes, bytes that are not UTF-8, and a segment that decodes to nothing do not match.
        #expect(Self.summary.match("routemap://bills/%zz/summary") == nil)
        #expect(Self.summary.match("routemap://bills/%C3/summary") == nil)
        #expect(Self.summary.match("routemap://bills/%4/summary") == nil)
    }

    @Test("a query string or a fragment is ignored")
    func queryAndFragment() {
        #expect(Self.summary.match("routemap://bills/b1/summary?from=push&x=1") == ["billId": "b1"])
        #expect(Self.summary.match("routemap://bills/b1/summary#total") == ["billId": "b1"])
        #expect(Self.summary.match("routemap://bills/b1/summary/?q#f") == ["billId": "b1"])
        #expect(DeepLinkPattern("routemap://menu").match("routemap://menu?") == [:])
    }

    @Test("one trailing slash is ignored")
    func trailingSlash() {
        #expect(DeepLinkPattern("routemap://menu").match("routemap://menu/") == [:])
        #expect(Self.summary.match("routemap://bills/b1/summary/") == ["billId": "b1"])
        #expect(DeepLinkPattern("routemap://menu").match("routemap://menu//") == nil)
    }

    @Test("the scheme compares without case; segments with it", arguments: [
        ("ROUTEMAP://bills/b1/summary", true),
        ("RouteMap://bills/b1/summary", true),
        ("routemap://Bills/b1/summary", false),
        ("routemap://bills/b1/SUMMARY", false),
    ])
    func caseSensitivity(url: String, matches: Bool) {
        #expect((Self.summary.match(url) != nil) == matches)
    }

    @Test("mismatches", arguments: [
        "other://bills/b1/summary",
        "routemap://bills/b1",
        "routemap://bills/b1/summary/more",
        "routemap://bill/b1/summary",
        "routemap://bills//summary",
        "routemap:/bills/b1/summary",
        "routemap:bills/b1/summary",
        "bills/b1/summary",
        "routemap://",
        "",
        "://bills/b1/summary",
    ])
    func mismatch(url: String) {
        #expect(Self.summary.match(url) == nil)
    }

    @Test("overlaps: same scheme and length, every segment pair equal or a placeholder")
    func overlaps() {
        let pairs: [(DeepLinkPattern, DeepLinkPattern, Bool)] = [
            ("app://items/{id}", "app://items/{name}", true),
            ("app://items/{id}", "app://items/new", true),
            ("app://{kind}/new", "app://items/{id}", true),
            ("app://items/new", "app://items/new", true),
            ("app://items/{id}", "APP://items/{id}", true),
            ("app://items/new", "app://items/old", false),
            ("app://items/{id}", "app://items/{id}/edit", false),
            ("app://items/{id}", "web://items/{id}", false),
            ("app://items/{id}", "app://Items/{id}", false),
            ("app://items/{id}", "app://items/{", false),
        ]
        for (a, b, expected) in pairs {
            #expect(a.overlaps(b) == expected, "\(a) vs \(b)")
            #expect(b.overlaps(a) == expected, "\(b) vs \(a)")
        }
    }

    @Test("defects name what is wrong; a defective pattern matches nothing", arguments: [
        ("routemap", "is not of the form scheme://segment/…"),
        ("routemap:/x", "is not of the form scheme://segment/…"),
        ("://x", "is not of the form scheme://segment/…"),
        ("rm_x://x", "is not of the form scheme://segment/…"),
        ("app://a//b", "is not of the form scheme://segment/…"),
        ("app://{id}/x/{id}", "repeats the placeholder {id}"),
        ("app://{i{d}", "has a malformed placeholder {i{d}"),
        ("app://{}", "has a malformed placeholder {}"),
        ("app://x}", "has a malformed placeholder x}"),
    ])
    func defects(pattern: String, defect: String) {
        let parsed = DeepLinkPattern(pattern)
        #expect(parsed.defect == defect)
        #expect(parsed.match(pattern) == nil)
    }

    @Test("schemes may use letters, digits, + - .")
    func schemes() {
        #expect(DeepLinkPattern("my-app.v2+x://home").defect == nil)
        #expect(DeepLinkPattern("my-app.v2+x://home").match("my-app.v2+x://home") == [:])
    }

    @Test("the registry resolves a URL to its route and the inputs of its placeholders")
    func resolve() throws {
        let pos = TestTrees.pos
        #expect(pos.resolve(url: "routemap://menu")?.route.id == "menu")
        #expect(pos.resolve(url: "routemap://menu")?.inputs == [:])
        #expect(pos.resolve(url: "routemap://bills/b7")?.route.id == "bill")
        #expect(pos.resolve(url: "routemap://bills/b7")?.inputs == ["billId": "b7"])
        #expect(pos.resolve(url: "routemap://bills/b%207/summary?utm=x")?.route.id == "orderSummary")
        #expect(pos.resolve(url: "routemap://bills/b%207/summary?utm=x")?.inputs == ["billId": "b 7"])
        #expect(pos.resolve(url: "routemap://nowhere") == nil)
        #expect(pos.resolve(url: "app://feed") == nil)
        let deep = TestTrees.deep
        #expect(deep.resolve(url: "app://albums/a1/tracks/t9")?.route.id == "track")
        #expect(deep.resolve(url: "app://albums/a1/tracks/t9")?.inputs == ["albumId": "a1", "trackId": "t9"])
        #expect(deep.resolve(url: "app://editor/advanced/")?.route.id == "advanced")
        #expect(deep.resolve(url: "app://stats/days/2024-05-01")?.inputs == ["day": "2024-05-01"])
    }

    @Test("a deep link's placeholders are the request's inputs: the bill on screen is replaced with the linked one")
    func resolveAndWalk() throws {
        let link = try #require(TestTrees.pos.resolve(url: "routemap://bills/b7/summary"))
        let navigation = try TestTrees.posNavigator.navigate(from: ["tabBar", "splitContainer", "menu"], .to, link.route.id, input: link.inputs)
        #expect(describe(navigation.steps) == ["replace bill", "present orderSummary"])
        #expect(navigation.steps.allSatisfy { $0.screen?.payload["inputs"] == ["billId": "b7"] })
        #expect(strings(navigation.stack) == ["tabBar", "splitContainer", "bill{billId=b7}", "orderSummary{billId=b7}"])
        let deep = try #require(TestTrees.deep.resolve(url: "app://albums/a1/tracks/t9"))
        let walk = try TestTrees.deepNavigator.navigate(from: ["app", "home"], .to, deep.route.id, input: deep.inputs)
        #expect(describe(walk.steps) == ["selectTab library", "embed folders", "embed albumList", "push album", "push track"])
        #expect(walk.steps.last?.screen?.payload["inputs"] == ["albumId": "a1", "trackId": "t9"])
    }
}
