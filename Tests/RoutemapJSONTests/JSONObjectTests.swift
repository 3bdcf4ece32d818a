import RoutemapJSON
import Testing

@Suite("JSON objects")
struct JSONObjectTests {
    @Test("append adds members in order; contains and the subscript find them")
    func appendAndLookUp() {
        var object: JSONObject = ["op": "embed"]
        object.append("slot", "primary")
        object.append("animated", false)
        #expect(object.keys == ["op", "slot", "animated"])
        #expect(object.contains("slot"))
        #expect(!object.contains("screen"))
        #expect(object["animated"] == false)
        #expect(JSON.object(object).encodedString == #"{"op":"embed","slot":"primary","animated":false}"#)
    }

    @Test("init from a sequence keeps a repeated key's first position and last value")
    func repeatedKeys() {
        let object = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        #expect(object.keys == ["a", "b"])
        #expect(JSON.object(object).encodedString == #"{"a":3,"b":2}"#)
    }

    @Test("equality and hashing follow members and their order")
    func equality() {
        let ab: JSONObject = ["a": 1, "b": 2]
        #expect(ab == JSONObject(uniqueKeysWithValues: [("a", 1), ("b", 2)]))
        #expect(ab != ["b": 2, "a": 1])
        #expect(ab != ["a": 1, "b": 3])
        #expect(Set([ab, JSONObject([("a", 1), ("b", 2)])]).count == 1)
    }

    @Test("large objects: lookups, replacing, removing and appending stay consistent")
    func largeObjects() {
        var object = JSONObject()
        for index in 0..<100 { object["k\(index)"] = .int(Int64(index)) }
        #expect(object.count == 100)
        #expect(object["k73"] == 73)
        object["k10"] = "ten"
        object["k5"] = nil
        object.append("last", true)
        #expect(object.count == 100)
        #expect(object["k10"] == "ten")
        #expect(object["k5"] == nil)
        #expect(object["k99"] == 99)
        #expect(object["last"] == true)
        #expect(object.keys.first == "k0")
        #expect(object.keys.last == "last")
        // Shrinking below the size that keeps an index still finds every member.
        for index in 0..<100 { object["k\(index)"] = nil }
        #expect(object.keys == ["last"])
        #expect(object["last"] == true)
        #expect(Array(object).map(\.key) == ["last"])
    }

    @Test("the parser refuses a repeated key in a large object")
    func parserDuplicatesInLargeObjects() throws {
        let members = (0..<50).map { #""k\#($0)":\#($0)"# }
        let valid = "{" + members.joined(separator: ",") + "}"
        #expect(try JSON.parse(valid).objectValue?.count == 50)
        let repeated = "{" + (members + [#""k7":0"#]).joined(separator: ",") + "}"
        #expect(throws: JSONParseError.self) { try JSON.parse(repeated) }
    }
}
