import Testing

@testable import RoutemapHTTP

@Suite("Request ids")
struct RequestIDTests {
    @Test("the counter is written in base 36 after the prefix, up to the largest one", arguments: [0, 1, 35, 36, 1295, 1296, 4_738_381_338_321_616_896, UInt64.max] as [UInt64])
    func base36(number: UInt64) {
        let id = RequestID.make(number: number)
        let prefix = RequestID.make(number: 0).dropLast()
        #expect(id == prefix + String(number, radix: 36))
    }

    @Test("made ids are the process's prefix and a counter that goes up")
    func madeIds() throws {
        let ids = (0..<40).map { _ in RequestID.make() }
        let prefix = try #require(ids.first?.split(separator: "-").first)
        #expect(prefix.count == 8)
        let numbers = try ids.map { id in
            let parts = id.split(separator: "-")
            #expect(parts.count == 2 && parts[0] == prefix, "\(id)")
            #expect(parts[1].allSatisfy { $0.isNumber || ("a"..."z").contains($0) }, "\(id)")
            return try #require(UInt64(parts[1], radix: 36), "\(id)")
        }
        // Other tests make ids meanwhile, so consecutive ones go up by at least one.
        for (earlier, later) in zip(numbers, numbers.dropFirst()) { #expect(later > earlier) }
        #expect(Set(ids).count == ids.count)
    }

    @Test("a client's id is kept when well-formed, else replaced")
    func clientIds() {
        #expect(RequestID.take(from: "client-id.42:a_b") == "client-id.42:a_b")
        #expect(RequestID.take(from: "has space") != "has space")
        #expect(RequestID.take(from: String(repeating: "x", count: 65)).count < 65)
        #expect(RequestID.take(from: nil).hasPrefix(String(RequestID.make().prefix(9))))
    }
}
