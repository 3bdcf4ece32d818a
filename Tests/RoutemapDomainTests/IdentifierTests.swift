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
}
