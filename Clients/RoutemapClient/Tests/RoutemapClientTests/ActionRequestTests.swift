import Foundation
import Testing

@testable import RoutemapClient

/// Each rule of the README's "Screen actions" section, one at a time.
@Suite("Screen actions: placeholders")
struct ActionRequestTests {
    private let intent = UserIntent(idempotencyKey: "key-1")

    private func fill(
        _ action: ScreenAction, inputs: [[String: String]] = [], item: JSONValue? = nil, entered: [String: JSONValue] = [:],
        payload: JSONValue = [:]
    ) throws -> ActionRequest {
        try ActionRequest(
            action: action, values: ActionRequest.Values(inputs: inputs, item: item, entered: entered, payload: payload), intent: intent)
    }

    @Test("{NAME} is a navigation input of the screens on display, the most recently shown first")
    func navigationInputMostRecentFirst() throws {
        let action = ScreenAction(name: "addItem", method: .post, path: "/v1/bills/{billId}/items")
        // Most recent first: the summary of bill_new was shown after the bill screen of bill_old.
        let request = try fill(action, inputs: [["other": "x"], ["billId": "bill_new"], ["billId": "bill_old"]])
        #expect(request.path == "/v1/bills/bill_new/items")
        #expect(request.method == .post)
        #expect(request.name == "addItem")
    }

    @Test("{item.FIELD} is a field of the tapped row; in a path its text")
    func itemField() throws {
        let action = ScreenAction(
            name: "setQuantity", method: .patch, path: "/v1/bills/{billId}/items/{item.lineId}", row: "lines",
            body: ["quantity": "{value.quantity}"])
        let request = try fill(
            action, inputs: [["billId": "bill_1"]], item: ["lineId": "line_7", "quantity": 2], entered: ["quantity": 5])
        #expect(request.path == "/v1/bills/bill_1/items/line_7")
        #expect(request.body == ["quantity": 5])
    }

    @Test("{value.NAME} is what the user entered, with its JSON type in a body")
    func enteredValue() throws {
        let action = ScreenAction(
            name: "pay", method: .post, path: "/v1/bills/{billId}/pay",
            body: ["method": "{value.method}", "tenderedMinor": "{value.tenderedMinor}", "note": "{value.note}"])
        let request = try fill(action, inputs: [["billId": "b"]], entered: ["method": "cash", "tenderedMinor": 2000, "note": true])
        #expect(request.body == ["method": "cash", "tenderedMinor": 2000, "note": true])
    }

    @Test("{payload.FIELD} is a field of the action's own screen's payload, keeping its type")
    func payloadField() throws {
        let action = ScreenAction(name: "pay", method: .post, path: "/v1/bills/{billId}/pay", body: ["amountMinor": "{payload.totalMinor}"])
        let request = try fill(action, inputs: [["billId": "b"]], payload: ["totalMinor": 1033, "billId": "b"])
        #expect(request.body == ["amountMinor": 1033])
        #expect(request.body?["amountMinor"]?.intValue == 1033)
    }

    @Test("{idempotencyKey} is the intent's key: a fresh one per intent, the same for a retry of that intent")
    func idempotencyKey() throws {
        let action = ScreenAction(
            name: "checkout", method: .post, path: "/v1/bills/{billId}/checkout", headers: ["Idempotency-Key": "{idempotencyKey}"])
        let values = ActionRequest.Values(inputs: [["billId": "b"]])
        let first = try ActionRequest(action: action, values: values)
        let second = try ActionRequest(action: action, values: values)
        #expect(first.headers["Idempotency-Key"] == first.intent.idempotencyKey)
        #expect(first.headers["Idempotency-Key"] != second.headers["Idempotency-Key"])
        let retry = try ActionRequest(action: action, values: values, intent: first.intent)
        #expect(retry.headers == first.headers)
        #expect(UUID(uuidString: first.intent.idempotencyKey) != nil)
    }

    @Test("In a path, placeholder text is percent-encoded (a / or a space never splits or breaks the path)")
    func pathPercentEncoding() throws {
        let action = ScreenAction(name: "open", method: .get, path: "/v1/bills/{billId}/items/{item.lineId}")
        let request = try fill(action, inputs: [["billId": "a/b c?d%é"]], item: ["lineId": 12])
        #expect(request.path == "/v1/bills/a%2Fb%20c%3Fd%25%C3%A9/items/12")
    }

    @Test("A path placeholder with no value cannot be filled: MissingValue names it")
    func pathWithoutValue() throws {
        let action = ScreenAction(name: "addItem", method: .post, path: "/v1/bills/{billId}/items")
        #expect(throws: ActionRequest.MissingValue(action: "addItem", placeholder: "billId")) { try fill(action) }
    }

    @Test("In a body, a string that is exactly one placeholder keeps the value's JSON type; other strings get its text")
    func typedSubstitution() throws {
        let action = ScreenAction(
            name: "x", method: .post, path: "/p",
            body: [
                "number": "{payload.totalMinor}", "object": "{item.price}", "array": "{payload.tags}", "text": "total {payload.totalMinor}",
                "literal": 1, "flag": false, "nested": ["id": "{item.id}"], "list": ["{item.id}", "{value.missing}", 3],
            ])
        let request = try fill(
            action, item: ["id": "latte", "price": ["minor": 475]], payload: ["totalMinor": 1033, "tags": ["a", "b"]])
        #expect(
            request.body == [
                "number": 1033, "object": ["minor": 475], "array": ["a", "b"], "text": "total 1033", "literal": 1, "flag": false,
                "nested": ["id": "latte"], "list": ["latte", 3],
            ])
    }

    @Test("A body member whose placeholder has no value (or a null one) is left out")
    func membersWithoutValueLeftOut() throws {
        let action = ScreenAction(
            name: "pay", method: .post, path: "/pay",
            body: ["method": "{value.method}", "amountMinor": "{payload.totalMinor}", "tenderedMinor": "{value.tenderedMinor}", "memo": "for {value.memo}"])
        let card = try fill(action, entered: ["method": "card", "memo": nil], payload: ["totalMinor": 979])
        #expect(card.body == ["method": "card", "amountMinor": 979])
    }

    @Test("A header whose placeholder has no value is left out; literal headers stay")
    func headers() throws {
        let action = ScreenAction(
            name: "x", method: .post, path: "/p", headers: ["X-Note": "{value.note}", "X-Fixed": "yes", "Idempotency-Key": "{idempotencyKey}"])
        let request = try fill(action)
        #expect(request.headers == ["X-Fixed": "yes", "Idempotency-Key": "key-1"])
    }

    @Test("Braces around anything but a name are literal text")
    func literalBraces() {
        #expect(Placeholders.parse("/a/{}/{b c}/{ok}") == [.literal("/a/{}/{b c}/"), .placeholder("ok")])
        #expect(Placeholders.parse("{x}{y}") == [.placeholder("x"), .placeholder("y")])
        #expect(Placeholders.parse("{open") == [.literal("{open")])
    }

    @Test("An unknown placeholder kind has no value")
    func unknownKind() throws {
        let action = ScreenAction(name: "x", method: .post, path: "/p", body: ["a": "{device.name}"])
        #expect(try fill(action, inputs: [["billId": "b"]]).body == [:])
    }
}
