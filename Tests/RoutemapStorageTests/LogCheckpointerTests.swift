import Foundation
import RoutemapDomain
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// The WAL is copied into the database file off the writer, and still starts over, so it stays
/// short however long the writes go on.
@Suite("WAL checkpoints", .enabled(if: !TestDatabase.onPostgres, "about SQLite itself"))
struct LogCheckpointerTests {
    /// Pages that start a checkpoint in these tests (the store's default is 10,000).
    static let pagesPerCheckpoint = 64

    private func walBytes(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path + "-wal")
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test("under a long run of writes, background passes copy the log, the writer copies only what they left, and the log restarts")
    func logStaysShort() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("routemap.sqlite")
        let store = try SQLiteStore(path: path, migrations: try StorageFixtures.migrations(), pagesPerCheckpoint: Self.pagesPerCheckpoint)
        let device = try await DeviceDirectory(store: store).enroll(name: "Front counter").device.id
        let rounds = 40, perRound = 20
        for round in 0..<rounds {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<perRound {
                    group.addTask {
                        let bill = try Bill(
                            id: "bill_\(round)_\(index)", currency: .usd, taxRate: StorageFixtures.rate875, createdAt: Date(), deviceId: device)
                        try await store.write { try $0.insert(bill) }
                    }
                }
                try await group.waitForAll()
            }
            // Writes wait for a pass under way, so what this checks does not depend on how busy
            // the machine is: on a slow one the log runs ahead of a pass for longer (it is not
            // a bound the store promises), and fewer passes run in the same writes.
            while store.checkpointer.passIsRunning { try await Task.sleep(for: .milliseconds(1)) }
        }
        let passes = store.checkpointer.passesRun.load(ordering: .relaxed)
        let onWriter = store.checkpointer.writerCheckpoints.load(ordering: .relaxed)
        #expect(passes >= 3, "\(passes) background passes")
        // After each pass the writer's next batch copies what the pass left (each pass but the
        // last is followed by a batch): without that copy the log could never start over.
        #expect((passes - 1)...passes ~= onWriter, "the writer copies once after each pass: \(onWriter) copies, \(passes) passes")
        // 800 bills write about 490 pages (2 MB of log with no checkpoint at all): a log that
        // never restarted would hold them all. One that restarts holds a threshold's worth,
        // what came during a pass, and a batch.
        let pageBytes = 4096 + 24
        let wal = try walBytes(path)
        #expect(wal <= 4 * Self.pagesPerCheckpoint * pageBytes, "the WAL grew to \(wal) bytes")

        // Every write is in the file, and closing leaves the log empty.
        try store.close()
        #expect(try walBytes(path) == 0)
        let reopened = try SQLiteStore(path: path, migrations: try StorageFixtures.migrations())
        #expect(try reopened.rowCount(in: "bills") == rounds * perRound)
    }

    @Test("with the default threshold, a short run of writes starts no pass and the writer copies nothing")
    func shortRunCopiesNothing() async throws {
        let database = try await TestDatabase()
        let store = database.sqlite
        for index in 0..<20 {
            let bill = try Bill(id: "bill_\(index)", currency: .usd, taxRate: StorageFixtures.rate875, createdAt: Date(), deviceId: database.device)
            try await store.write { try $0.insert(bill) }
        }
        #expect(store.checkpointer.passesRun.load(ordering: .relaxed) == 0)
        #expect(store.checkpointer.writerCheckpoints.load(ordering: .relaxed) == 0)
        #expect(try walBytes(database.path) > 0, "the writes are in the log, not yet copied")
    }
}
