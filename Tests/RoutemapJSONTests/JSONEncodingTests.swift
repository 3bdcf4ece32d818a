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

    @Test("writes integers exactly, at both ends of Int64")
    func integers() {
        let values: [Int64] = [0, 7, 9, 10, -1, -10, 1234, -98765, .max, .min]
        #expect(
            JSON.array(values.map(JSON.int)).encodedString
                == "[0,7,9,10,-1,-10,1234,-98765,9223372036854775807,-9223372036854775808]")
        #expect(JSON.array([.double(2), .double(-3), .double(0.5)]).encodedString == "[2,-3,0.5]")
    }

    @Test("escapes inside long strings and every control character")
    func longStrings() throws {
        let long = String(repeating: "plain ascii, ", count: 300) + "\"" + String(repeating: "é", count: 50) + "\n"
        let encoded = JSON.string(long).encodedString
        #expect(encoded == "\"" + String(repeating: "plain ascii, ", count: 300) + #"\""# + String(repeating: "é", count: 50) + #"\n""#)
        #expect(try JSON.parse(encoded) == .string(long))
        let controls = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        let expected = (0..<0x20).map { byte -> String in
            switch byte {
            case 0x09: return #"\t"#
            case 0x0A: return #"\n"#
            case 0x0D: return #"\r"#
            default: return #"\u00"# + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
            }
        }
        #expect(JSON.string(controls).encodedString == "\"" + expected.joined() + "\"")
        #expect(try JSON.parse(JSON.string(controls).encoded()) == .string(controls))
    }

    @Test("encode(into:) appends after what is there")
    func encodeIntoAppends() {
        var bytes = Array("prefix:".utf8)
        JSON.array(["a", 1]).encode(into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"prefix:["a",1]"#)
    }
}

