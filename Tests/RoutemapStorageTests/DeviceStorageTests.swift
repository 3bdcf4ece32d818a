import Crypto
import Foundation
import GRDB
import RoutemapDomain
@testable import RoutemapStorage
import Testing

@Suite("Devices on a real database: tokens stored only as digests")
struct DeviceStorageTests {
    @Test("enroll returns a token that finds the device, also after reopening the file; a wrong token finds nothing")
    func enrollAndFind() async throws {
        let database = try await TestDatabase()
        let directory = DeviceDirectory(store: database.store, now: { Date(timeIntervalSince1970: 1_732_262_100.123_9) })
        let (device, token) = try await directory.enroll(name: "Front counter")
        #expect(device.createdAt == Date(timeIntervalSince1970: 1_732_262_100.124))
        #expect(try directory.device(token: token) == device)

        let reopened = try database.reopen()
        #expect(try DeviceDirectory(store: reopened).device(token: token) == device)

        var wrong = token.value
        wrong.replaceSubrange(wrong.index(before: wrong.endIndex)..., with: wrong.last == "A" ? "B" : "A")
        for value in [wrong, "", token.value + " ", String(token.value.dropFirst(4))] {
            #expect(try directory.device(token: DeviceToken(value: value)) == nil, "\(value)")
        }
        // The test database's own device is not found by this token either.
        #expect(try directory.device(token: token)?.id != database.device)
    }

    @Test("the database holds a 32-byte SHA-256 digest of the token, and the token nowhere", .enabled(if: !TestDatabase.onPostgres, "about SQLite itself"))
    func onlyDigestStored() async throws {
        let database = try await TestDatabase()
        let (device, token) = try await DeviceDirectory(store: database.store).enroll(name: "Front counter")
        let row = try #require(
            try database.sqlite.onWriter("reading the device row") { database in
                try Row.fetchOne(
                    database, sql: "SELECT typeof(token_digest) AS type, token_digest AS digest FROM devices WHERE id = ?",
                    arguments: [device.id])
            })
        #expect(row["type"] as String == "blob")
        let digest: Data = row["digest"]
        #expect(digest.count == 32)
        #expect(Array(digest) == Array(SHA256.hash(data: Array(token.value.utf8))))

        // Not in any column of any table, and not in the files at all (after a checkpoint).
        try database.sqlite.close()
        let secret = Array(token.value.dropFirst(4).utf8)
        for suffix in ["", "-wal"] {
            let bytes = Array((try? Data(contentsOf: URL(fileURLWithPath: database.path + suffix))) ?? Data())
            #expect(!bytes.contains(secret), "the token is in \(database.path + suffix)")
        }
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: database.path)))
        #expect(bytes.contains(Array(digest)), "the digest is in the file: the search would find the token if it were")
    }

    @Test("the schema refuses a digest that is not 32 bytes, and the same digest twice")
    func digestConstraints() async throws {
        let database = try await TestDatabase()
        let device = Device(id: "dev_short", name: "Short", createdAt: Date())
        let short = await #expect(throws: StorageError.self) {
            try await database.store.write { try $0.insert(device, tokenDigest: Array(repeating: 7, count: 16)) }
        }
        let shortCause = String(describing: short?.underlyingError)
        #expect(shortCause.lowercased().contains("check"))

        let digest = DeviceToken.generate().digest
        try await database.store.write { try $0.insert(Device(id: "dev_one", name: "One", createdAt: Date()), tokenDigest: digest) }
        let twice = await #expect(throws: StorageError.self) {
            try await database.store.write { try $0.insert(Device(id: "dev_two", name: "Two", createdAt: Date()), tokenDigest: digest) }
        }
        let twiceCause = String(describing: twice?.underlyingError)
        #expect(twiceCause.lowercased().contains("unique"))
        #expect(try database.store.rowCount(in: "devices") == 2)  // the test database's device and dev_one
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in these bytes.
    fileprivate func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return (0...(count - needle.count)).contains { start in self[start..<(start + needle.count)].elementsEqual(needle) }
    }
}
