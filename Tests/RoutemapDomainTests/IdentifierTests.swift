import RoutemapDomain
import Testing

@Suite("Identifiers")
struct IdentifierTests {
    @Test("prefix then 22 base62 characters")
    func shape() {
        let id = Identifier.make(prefix: "bill_")
        #expect(id.hasPrefix("bill_"))
        let random = id.dropFirst("bill_".count)
        #expect(random.count == 22)
        #expect(random.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("A"..."Z").contains($0) || ("a"..."z").contains($0) })
    }

    @Test("ids do not repeat and use the whole alphabet")
    func random() {
        let ids = (0..<2_000).map { _ in Identifier.make(prefix: "") }
        #expect(Set(ids).count == ids.count)
        // 44 000 characters: every one of the 62 appears unless the generator is broken.
        #expect(Set(ids.joined()).count == 62)
    }

    @Test("every character is equally likely (no modulo bias)")
    func uniform() {
        let characters = (0..<4_000).map { _ in Identifier.make(prefix: "") }.joined()
        var counts: [Character: Int] = [:]
        for character in characters { counts[character, default: 0] += 1 }
        // 88 000 characters: about 1419 each, standard deviation about 37. A modulo-62 mapping of
        // random bytes would give the first 8 characters 25% more (about 1760).
        // The 8 characters such a bias favours (the alphabet's first) are compared as a group (their mean's standard
        // deviation is about 13, so 5% is over 5 of them); no one character strays past 6.
        let mean = Double(characters.count) / 62
        #expect(counts.count == 62)
        let favoured = "01234567".map { Double(counts[$0] ?? 0) }.reduce(0, +) / 8
        #expect(abs(favoured - mean) < mean * 0.05, "the first 8 characters: \(favoured) each against \(mean)")
        #expect(counts.values.allSatisfy { abs(Double($0) - mean) < 6 * 37 })
    }
}
