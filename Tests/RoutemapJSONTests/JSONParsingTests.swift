import RoutemapJSON
import Testing

@Suite("JSON parsing")
struct JSONParsingTests {
    @Test("accepts RFC 8259 values and keeps integers exact")
    func acceptsValues() throws {
        let value = try JSON.parse(#" {"a": [1, -0, 1.5, 2e3, true, false, null, "x\u00e9\ud83d\ude00\n"], "big": 9007199254740993} "#)
        #expect(value["a"] == [1, 0, 1.5, 2000.0, true, false, nil, "xé😀\n"])
        #expect(value["big"] == .int(9_007_199_254_740_993))
        #expect(value.objectValue?.keys == ["a", "big"])
    }

    @Test("integers beyond Int64 become doubles, not traps")
    func hugeIntegers() throws {
        #expect(try JSON.parse("9223372036854775807") == .int(Int64.max))
        #expect(try JSON.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSON.parse("-9223372036854775809").doubleValue == -9_223_372_036_854_775_809)
    }

    @Test(
        "rejects malformed input",
        arguments: [
            "", " ", "{", "}", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "01", "-", "1.", ".5", "1e", "+1",
            "0x10", "NaN", "Infinity", "tru", "nul", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"",
            "\"a\u{01}b\"", "[1] [2]", "{\"a\":1}x", "1e400", "'a'",
        ])
    func rejectsMalformed(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSON.parse(text) }
    }

    @Test("rejects invalid UTF-8 inside strings")
    func rejectsInvalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSON.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONParseError.self) { try JSON.parse([0x22, 0xFF, 0x22]) }
    }

    @Test("rejects duplicate keys, naming the key and its offset")
    func rejectsDuplicateKeys() {
        #expect(throws: JSONParseError(offset: 8, reason: "duplicate key \"q\"")) {
            try JSON.parse(#"{"q":1, "q":2}"#)
        }
    }

    @Test("bounds nesting depth")
    func boundsDepth() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        _ = try JSON.parse(ok)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONParseError.self) { try JSON.parse(tooDeep) }
        let hostile = String(repeating: "{\"a\":", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSON.parse(hostile) }
    }
}
