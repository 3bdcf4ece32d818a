import RoutemapJSON
import Testing

@Suite("JSON encoding")
struct JSONEncodingTests {
    @Test("writes compact JSON with members in insertion order")
    func compactAndOrdered() {
        let value: JSON = ["z": 1, "a": [true, nil, 2.5], "m": ["k": "v"]]
        #expect(value.encodedString == #"{"z":1,"a":[true,null,2.5],"m":{"k":"v"}}"#)
    }

    @Test("escapes quotes, backslashes and control characters; keeps other UTF-8")
    func escapes() {
        let value: JSON = .string("q\"b\\n\nt\t\u{01}é😀")
        #expect(value.encodedString == #""q\"b\\n\nt\t\u0001é😀""#)
    }

    @Test("round-trips through the parser")
    func roundTrip() throws {
        let value: JSON = ["id": "bill_1", "lines": [["q": 3, "p": -12]], "ok": false, "x": 0.125, "n": nil]
        #expect(try JSON.parse(value.encoded()) == value)
    }

    @Test("splices fragments verbatim")
    func fragments() throws {
        let menu = JSONFragment(["items": [["id": "latte"]]])
        let value: JSON = ["payload": .fragment(menu), "after": 1]
        #expect(value.encodedString == #"{"payload":{"items":[{"id":"latte"}]},"after":1}"#)
        #expect(try JSON.parse(value.encoded())["payload"] == menu.value)
    }

    @Test("writes non-finite doubles as null")
    func nonFinite() {
        #expect(JSON.array([.double(.infinity), .double(.nan)]).encodedString == "[null,null]")
    }

    @Test("object setters replace in place, remove, and append")
    func objectEditing() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = 3
        object["c"] = 4
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(JSON.object(object).encodedString == #"{"a":3,"c":4}"#)
    }
}
