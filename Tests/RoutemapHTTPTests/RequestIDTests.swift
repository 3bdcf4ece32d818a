import Testing

@testable import RoutemapHTTP

@Suite("Request ids")
struct RequestIDTests {
    @Test("made ids are the process's prefix and a counter in base 36 that goes up by one")
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
