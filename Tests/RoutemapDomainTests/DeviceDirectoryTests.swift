import Crypto
import Foundation
import RoutemapDomain
import RoutemapTestSupport
import Testing

@Suite("Enrolling devices; finding them by token")
struct DeviceDirectoryTests {
    let store = InMemoryStore(menu: Fixtures.menu)

    private var directory: DeviceDirectory {
        DeviceDirectory(store: store, now: { Date(timeIntervalSince1970: 1_700_000_000.123_456) })
    }

    @Test("enroll returns the device and a token that finds it; the store keeps only the token's SHA-256")
    func enroll() async throws {
        let (device, token) = try await directory.enroll(name: "Front counter")
        #expect(device.id.hasPrefix("dev_") && device.id.count == 26)
        #expect(device.name == "Front counter")
        #expect(device.createdAt == Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(token.value.hasPrefix("rmt_") && token.value.count == 47)
        #expect(try directory.device(token: token) == device)
        #expect(try directory.device(token: DeviceToken(value: token.value)) == device)

        let stored = try #require(store.snapshot.devices.first)
        #expect(store.snapshot.devices.count == 1)
        #expect(stored.device == device)
        #expect(stored.tokenDigest == Array(SHA256.hash(data: Array(token.value.utf8))))
        #expect(stored.tokenDigest.count == 32)
        #expect(stored.tokenDigest != Array(token.value.utf8))
    }

    @Test("a wrong token finds nothing")
    func wrongToken() async throws {
        let (_, token) = try await directory.enroll(name: "Front counter")
        var almost = token.value
        let last = almost.removeLast()
        // The last character replaced by another (not "x" blindly: a token ending in "x", one in 62, is then itself).
        let changed = almost + (last == "x" ? "y" : "x")
        for wrong in ["", almost, changed, token.value.uppercased(), " " + token.value, "rmt_" + String(repeating: "A", count: 43)] {
            #expect(try directory.device(token: DeviceToken(value: wrong)) == nil, "\(wrong)")
        }
    }

    @Test("tokens and ids are different for every device, and each token finds its own device")
    func distinct() async throws {
        var enrolled: [(device: Device, token: DeviceToken)] = []
        for index in 0..<20 { enrolled.append(try await directory.enroll(name: "Till \(index)")) }
        #expect(Set(enrolled.map(\.token)).count == 20)
        #expect(Set(enrolled.map(\.device.id)).count == 20)
        for (device, token) in enrolled {
            #expect(try directory.device(token: token) == device)
        }
    }
}
