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

    /// Whether `value` is the `unknown` case carrying `rawValue`. (`value == .unknown(rawValue)`
    /// cannot say: open enumerations compare by raw value, so `.voided == .unknown("voided")`.)
    private func isUnknown<T: OpenEnumeration>(_ value: T?, _ rawValue: String) -> Bool {
        guard let value else { return false }
        return !value.isKnown && value.rawValue == rawValue
    }

    @Test("A menu item from a server before stock counts (no stock) is not counted; a counted one decodes its count; the change request sends null to stop counting")
    func stockCounts() throws {
        let old = try decode(MenuItem.self, #"{"id": "croissant", "name": "Croissant", "category": "bakery", "priceMinor": 350, "currency": "USD", "available": true}"#)
        #expect(old.stock == nil && !old.isSoldOut)
        let counted = try decode(MenuItem.self, #"{"id": "croissant", "name": "Croissant", "category": "bakery", "priceMinor": 350, "currency": "USD", "available": true, "stock": 0}"#)
        #expect(counted.stock == 0 && counted.isSoldOut)
        let encode = { (request: ChangeMenuItemRequest) in String(decoding: try JSONEncoder().encode(request), as: UTF8.self) }
        #expect(try encode(ChangeMenuItemRequest(stock: .notCounted)) == #"{"stock":null}"#)
        #expect(try encode(ChangeMenuItemRequest(stock: .count(12))) == #"{"stock":12}"#)
        #expect(try encode(ChangeMenuItemRequest(priceMinor: 5)) == #"{"priceMinor":5}"#)
    }

    @Test("An unknown op decodes to .unknown with its name; known ops decode to their cases")
    func unknownOperation() throws {
        let step = try decode(Step.self, #"{"op": "flip", "route": "bill", "animated": true, "angle": 90}"#)
        #expect(isUnknown(step.op, "flip"))
        guard case .unknown("flip") = step.op else {
            Issue.record("flip decoded to \(step.op)")
            return
        }
        for op in StepOperation.knownCases {
            let decoded = try decode(Step.self, #"{"op": "\#(op.rawValue)", "route": "r", "animated": false}"#).op
            #expect(decoded == op && decoded.isKnown)
            if case .unknown = decoded { Issue.record("\(op) decoded to the unknown case") }
        }
    }

    @Test("An unknown presentation style decodes to .unknown; the rest of the step is read")
    func unknownPresentationStyle() throws {
        let step = try decode(
            Step.self,
            #"{"op": "present", "route": "orderSummary", "animated": true, "presentation": {"style": "halfSheet", "inNavigationContainer": true, "detents": [0.5]},"#
                + #" "screen": {"type": "orderSummary", "renderer": "declarative", "title": "Order summary", "payload": {}, "actions": []}}"#)
        #expect(isUnknown(step.presentation?.style, "halfSheet"))
        #expect(step.presentation?.inNavigationContainer == true)
        #expect(step.screen?.type == .orderSummary && step.screen?.type.isKnown == true)
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
        #expect(isUnknown(screen.type, "loyaltyCard"))
        #expect(isUnknown(screen.renderer, "webView"))
        #expect(screen.inputs == [:])
        guard case .text(let text) = try decode(Component.self, #"{"type": "text", "text": "Hi", "style": "title"}"#) else {
            Issue.record("a text component did not decode as text")
            return
        }
        #expect(text.text == "Hi" && isUnknown(text.style, "title"))
        guard case .button(let button) = try decode(Component.self, #"{"type": "button", "title": "Go", "action": "go", "style": "link"}"#) else {
            Issue.record("a button component did not decode as a button")
            return
        }
        #expect(button.title == "Go" && button.action == "go" && isUnknown(button.style, "link"))
        let problem = try decode(
            Problem.self, #"{"type": "urn:routemap:problem:till_closed", "title": "Till closed", "status": 409, "detail": "Closed.", "code": "till_closed", "closedAt": "22:00"}"#)
        #expect(isUnknown(problem.code, "till_closed"))
        #expect(try decode(RoutePresentation.self, #"{"kind": "overlay", "level": 2}"#) == .unknown(kind: "overlay"))
        #expect(try decode(RoutePresentation.self, #"{"kind": "tab"}"#) == .tab)
        let refunded = try decode(BillStatus.self, #""refunded""#)
        #expect(isUnknown(refunded, "refunded"))
        if case .unknown("refunded") = refunded {} else { Issue.record("refunded decoded to \(refunded)") }
        // A known value decodes to its own case, never to `unknown` with its spelling.
        for status in BillStatus.knownCases {
            let decoded = try decode(BillStatus.self, "\"\(status.rawValue)\"")
            #expect(decoded.isKnown)
            if case .unknown = decoded { Issue.record("\(status.rawValue) decoded to the unknown case") }
        }
        if case .voided = try decode(BillStatus.self, #""voided""#) {} else { Issue.record("voided did not decode to .voided") }
    }

    @Test("Open enumerations compare by raw value: a hand-made unknown with a known spelling is the known value")
    func equalityIsByRawValue() throws {
        // The decision (OpenEnumeration's doc comment): equal values are those that encode the same.
        #expect(BillStatus.unknown("voided") == .voided)
        #expect(Set<BillStatus>([.voided, .unknown("voided")]).count == 1)
        #expect(BillStatus.unknown("refunded") != .voided)
        #expect(BillStatus.unknown("refunded") != .unknown("Refunded"))
        #expect(BillStatus.unknown("refunded") == .unknown("refunded"))
        // Hence tests and apps ask `isKnown` or match the case, never `== .unknown(…)`.
        #expect(!BillStatus.unknown("refunded").isKnown)
        #expect(BillStatus(rawValue: "voided").isKnown && BillStatus.named("voided").isKnown)
        if case .unknown = BillStatus(rawValue: "voided") { Issue.record("init(rawValue:) gave the unknown case for a known value") }
        // Round trip: what a value encodes decodes to an equal value.
        let encoded = try JSONEncoder().encode(BillStatus.unknown("voided"))
        #expect(try JSONDecoder().decode(BillStatus.self, from: encoded) == .unknown("voided"))
    }

    @Test("An old server's answers decode: a payment without tipMinor and chargedMinor (no tip, charged its amount), a bill without paidMinor, dueMinor and payments")
    func oldServer() throws {
        let payment = try decode(
            Payment.self,
            #"{"id":"pay_1","billId":"bill_1","receiptNumber":3,"method":"cash","amountMinor":1033,"tenderedMinor":2000,"changeMinor":967,"createdAt":"2026-01-01T10:00:00.000Z"}"#)
        #expect(payment.tipMinor == 0 && payment.chargedMinor == 1033 && payment.changeMinor == 967)
        let bill = #""lines":[],"subtotalMinor":950,"discountMinor":0,"taxMinor":83,"totalMinor":1033,"currency":"USD","version":4"#
        let paid = try decode(Bill.self, #"{"id":"bill_1","status":"paid","# + bill + #"}"#)
        #expect(paid.paidMinor == 1033 && paid.dueMinor == 0 && paid.payments.isEmpty)
        let checkedOut = try decode(Bill.self, #"{"id":"bill_1","status":"checked_out","# + bill + #"}"#)
        #expect(checkedOut.paidMinor == 0 && checkedOut.dueMinor == 1033 && checkedOut.payments.isEmpty)
        // A new server's members are read as sent.
        let split = try decode(Bill.self, #"{"id":"bill_1","status":"checked_out","paidMinor":33,"dueMinor":1000,"payments":[],"# + bill + #"}"#)
        #expect(split.paidMinor == 33 && split.dueMinor == 1000)
    }

    @Test("An old server's bill list entry, without discountMinor, decodes with the discount its totals leave: 0 without one, the discount with one")
    func oldServerListEntry() throws {
        let head = #""id":"bill_1","status":"open","lineCount":2,"currency":"USD","createdAt":"2026-01-01T10:00:00.000Z","current":true"#
        let plain = try decode(BillListEntry.self, #"{"# + head + #","subtotalMinor":950,"taxMinor":83,"totalMinor":1033}"#)
        #expect(plain.discountMinor == 0)
        // 10 % off 1000: 900 at 8.75 % is 79 of tax, 979 in all.
        let discounted = try decode(BillListEntry.self, #"{"# + head + #","subtotalMinor":1000,"taxMinor":79,"totalMinor":979}"#)
        #expect(discounted.discountMinor == 100)
        #expect(discounted.subtotalMinor - discounted.discountMinor + discounted.taxMinor == discounted.totalMinor)
        // A new server's member is read as sent.
        let sent = try decode(BillListEntry.self, #"{"# + head + #","subtotalMinor":1000,"discountMinor":100,"taxMinor":79,"totalMinor":979}"#)
        #expect(sent == discounted)
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
