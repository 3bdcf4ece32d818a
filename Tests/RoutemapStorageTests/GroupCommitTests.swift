import Foundation
import RoutemapDomain
@testable import RoutemapStorage
import Testing

/// Writes that arrive together commit together, yet each succeeds or fails on its own.
@Suite("Group commit")
struct GroupCommitTests {
    struct Refused: Error {}

    @Test("32 threads, every third write failing after it wrote: the others all commit, the failing leave nothing")
    func failuresStayAlone() throws {
        let database = try TestDatabase()
        let device = database.device
        let store = database.store
        let results = resultsOnThreads(32) { thread in
            var opened: [String] = []
            for round in 0..<10 {
                let bill = try Bill(
                    id: "bill_t\(thread)r\(round)", currency: .usd, taxRate: StorageFixtures.rate875, createdAt: Date(), deviceId: device)
                let fails = (thread * 10 + round) % 3 == 0
                do {
                    try store.write(durability: round % 4 == 0 ? .full : .normal) { transaction in
                        try transaction.insert(bill)
                        if fails { throw Refused() }
                    }
                    opened.append(bill.id)
                } catch is Refused {
                    #expect(fails)
                }
            }
            return opened
        }
        let committed = try results.flatMap { try $0.get() }
        #expect(committed.count == (0..<320).filter { $0 % 3 != 0 }.count)
        // The file holds exactly the writes that returned, and the cache agrees with it.
        #expect(try store.rowCount(in: "bills") == committed.count)
        let reopened = try SQLiteStore(path: database.path, migrations: try StorageFixtures.migrations())
        for id in committed { #expect(try reopened.bill(id: id) != nil) }
        for thread in 0..<32 {
            for round in 0..<10 where (thread * 10 + round) % 3 == 0 {
                #expect(try store.bill(id: "bill_t\(thread)r\(round)") == nil)
                #expect(try reopened.bill(id: "bill_t\(thread)r\(round)") == nil)
            }
        }
        // Some commits took more than one write (320 writes from 32 threads at once).
        #expect(store.writes.batchesRun.load(ordering: .relaxed) < 320)
    }

    @Test("a write that cannot begin (the file is locked past the busy timeout) fails with the database's error")
    func beginFails() throws {
        let database = try TestDatabase()
        // Another connection holds the write lock past the busy timeout.
        let blocker = try SQLiteStore(path: database.path, migrations: try StorageFixtures.migrations(), busyTimeout: 0.05)
        let busy = try SQLiteStore(path: database.path, migrations: try StorageFixtures.migrations(), busyTimeout: 0.05)
        try blocker.write { _ in
            let error = #expect(throws: StorageError.self) { try busy.write { _ in } }
            guard case .database? = error else {
                Issue.record("expected a database error, got \(String(describing: error))")
                return
            }
        }
    }
}
