import RoutemapDomain
import Testing

@Suite("Bounded dictionary")
struct BoundedDictionaryTests {
    @Test("full, it drops the entry inserted first; an update keeps its place; a removed key is skipped")
    func evictsInInsertionOrder() {
        var dictionary = BoundedDictionary<String, Int>(capacity: 3)
        for (index, key) in ["a", "b", "c"].enumerated() { dictionary[key] = index }
        dictionary["a"] = 10  // an update, not a new entry: "a" stays first in line
        dictionary["d"] = 3
        #expect(dictionary["a"] == nil && dictionary["b"] == 1 && dictionary["c"] == 2 && dictionary["d"] == 3)
        dictionary["c"] = nil
        dictionary["e"] = 4  // room without dropping anything
        #expect(dictionary.count == 3 && dictionary["b"] == 1)
        dictionary["f"] = 5  // "b" goes; "c", removed already, is skipped
        #expect(dictionary["b"] == nil && dictionary["d"] == 3 && dictionary["e"] == 4 && dictionary["f"] == 5)
    }

    @Test("after many more keys than it holds, it holds exactly the newest, whatever was removed on the way")
    func longRun() {
        var dictionary = BoundedDictionary<String, Int>(capacity: 64)
        for index in 0..<100_000 {
            if index % 3 == 0 { dictionary["bill_\(index - 1)"] = nil }  // every third key, once the next one comes
            dictionary["bill_\(index)"] = index
        }
        let expected = (100_000 - 200..<100_000).filter { $0 % 3 != 2 }.suffix(64)
        #expect(dictionary.count == 64)
        #expect(expected.allSatisfy { dictionary["bill_\($0)"] == $0 })
    }

    @Test("a key removed and inserted again takes the newest place: its old insertion evicts nothing")
    func reinsertedKeyIsNewest() {
        var dictionary = BoundedDictionary<String, Int>(capacity: 2)
        dictionary["a"] = 1
        dictionary["b"] = 2
        dictionary["a"] = nil
        dictionary["a"] = 3  // now newer than "b"
        dictionary["c"] = 4  // "b" goes, the oldest entry
        #expect(dictionary["b"] == nil && dictionary["a"] == 3 && dictionary["c"] == 4)
        // Many removals and insertions of the same few keys keep the right ones.
        for round in 0..<10_000 {
            dictionary["a"] = nil
            dictionary["a"] = round
        }
        dictionary["d"] = 5  // "c" is now the oldest
        #expect(dictionary["c"] == nil && dictionary["a"] == 9_999 && dictionary["d"] == 5 && dictionary.count == 2)
    }
}
