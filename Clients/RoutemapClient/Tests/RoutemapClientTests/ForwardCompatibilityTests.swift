import Foundation
import Testing

@testable import RoutemapClient

/// What a newer server may send decodes: unknown values become explicit `unknown` cases,
/// unknown members are ignored.
@Suite("Forward compatibility")
struct ForwardCompatibilityTests {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    @Test("An unknown op decodes to .unknown with its name; known ops decode to their cases")
    func unknownOperation() throws {
        let step = try decode(Step.self, #"{"op": "flip", "route": "bill", "animated": true, "angle": 90}"#)
        #expect(step.op == .unknown("flip"))
        #expect(!step.op.isKnown)
        #expect(step.op.rawValue == "flip")
        for op in StepOperation.knownCases {
            #expect(try decode(Step.self, #"{"op": "\#(op.rawValue)", "route": "r", "animated": false}"#).op == op)
        }
    }

    @Test("An unknown presentation style decodes to .unknown; the rest of the step is read")
    func unknownPresentationStyle() throws {
        let step = try decode(
            Step.self,
            #"{"op": "present", "route": "orderSummary", "animated": true, "presentation": {"style": "halfSheet", "inNavigationContainer": true, "detents": [0.5]},"#
                + #" "screen": {"type": "orderSummary", "renderer": "declarative", "title": "Order summary", "payload": {}, "actions": []}}"#)
        #expect(step.presentation == PresentationOptions(style: .unknown("halfSheet"), inNavigationContainer: true))
        #expect(step.screen?.type == .orderSummary)
    }

    @Test("An unknown component type decodes to .unknown(type:) inside a tree of known ones")
    func unknownComponent() throws {
        let components = try decode(
            [Component].self,
            #"[{"type": "section", "title": "Items", "children": [{"type": "chart", "series": [1, 2]}, {"type": "row", "title": "Latte", "badge": "new"}]}, {"type": "divider"}]"#
        )
        #expect(
            components == [
                .section(.init(title: "Items", children: [.unknown(type: "chart"), .row(.init(title: "Latte", detail: nil, value: nil))])),
                .divider,
            ])
    }

    @Test("Unknown screen types, renderers, statuses, text and button styles, problem codes and route kinds are explicit unknowns")
    func otherUnknowns() throws {
        let screen = try decode(
            Screen.self, #"{"type": "loyaltyCard", "renderer": "webView", "title": "Card", "payload": {"points": 3}, "actions": [], "theme": "dark"}"#)
        #expect(screen.type == .unknown("loyaltyCard"))
        #expect(screen.renderer == .unknown("webView"))
        #expect(screen.inputs == [:])
        #expect(try decode(Component.self, #"{"type": "text", "text": "Hi", "style": "title"}"#) == .text(.init(text: "Hi", style: .unknown("title"))))
        #expect(
            try decode(Component.self, #"{"type": "button", "title": "Go", "action": "go", "style": "link"}"#)
                == .button(.init(title: "Go", action: "go", style: .unknown("link"))))
        let problem = try decode(
            Problem.self, #"{"type": "urn:routemap:problem:till_closed", "title": "Till closed", "status": 409, "detail": "Closed.", "code": "till_closed", "closedAt": "22:00"}"#)
        #expect(problem.code == .unknown("till_closed"))
        #expect(try decode(RoutePresentation.self, #"{"kind": "overlay", "level": 2}"#) == .unknown(kind: "overlay"))
        #expect(try decode(BillStatus.self, #""voided""#) == .unknown("voided"))
    }

    @Test("Unknown values encode back as they came")
    func unknownsRoundTrip() throws {
        let step = Step(op: .unknown("flip"), route: "bill", presentation: PresentationOptions(style: .unknown("halfSheet"), inNavigationContainer: false))
        let json = try JSONValue(encoding: step)
        #expect(json["op"] == "flip")
        #expect(json["presentation"]?["style"] == "halfSheet")
    }

    @Test("A stack entry reads the object form, and the legacy string form as an entry with no inputs")
    func stackEntryForms() throws {
        let entries = try decode(
            [StackEntry].self,
            #"[{"route": "tabBar", "inputs": {}}, {"route": "bill", "inputs": {"billId": "bill_1"}, "focus": true}, {"route": "orderSummary", "inputs": {}, "sub": true}, "menu", "sub:bill"]"#
        )
        #expect(
            entries == [
                StackEntry(route: "tabBar"), StackEntry(route: "bill", inputs: ["billId": "bill_1"]), StackEntry(route: "orderSummary", sub: true),
                StackEntry(route: "menu"), StackEntry(route: "bill", sub: true),
            ])
        #expect(try JSONValue(encoding: entries[1]) == ["route": "bill", "inputs": ["billId": "bill_1"]])
        #expect(try JSONValue(encoding: entries[2]) == ["route": "orderSummary", "inputs": [:], "sub": true])
    }
}
