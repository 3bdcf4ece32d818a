import Foundation
import GRDB
import RoutemapDomain
@testable import RoutemapStorage
import Testing

/// Writes that arrive together commit together, yet each succeeds or fails on its own.
@Suite("Group commit", .enabled(if: !TestDatabase.onPostgres, "about SQLite itself"))
struct GroupCommitTests {
    struct Refused: Error, Equatable {
        var index = 0
    }

    private func bill(_ id: String, device: String) throws -> Bill {
        try Bill(id: id, currency: .usd, taxRate: StorageFixtures.rate875, createdAt: Date(), deviceId: device)
    }

    /// Batches and jobs the store's write queue has run so far.
    private func counters(_ store: SQLiteStore) -> (batches: Int, jobs: Int) {
        (store.writes.batchesRun.load(ordering: .relaxed), store.writes.jobsRun.load(ordering: .relaxed))
    }

    @Test("50 concurrent writes queued behind a busy writer commit in far fewer batches than writes, each one's effect committed")
    func concurrentWritesShareCommits() async throws {
        let database = try await TestDatabase()
        let store = database.sqlite
        let device = database.device
        let before = counters(store)
        let writes = 50
        let held = try await HeldWriter(store)
        let results = try await held.queue(writes) { index in
            let bill = try bill("bill_\(index)", device: device)
            try await store.write(durability: index % 5 == 0 ? .full : .normal) { try $0.insert(bill) }
            return bill.id
        }
        let ids = try results.map { try $0.get() }
        #expect(ids == (0..<writes).map { "bill_\($0)" })

        let after = counters(store)
        #expect(after.jobs - before.jobs == writes + 1, "the 50 writes and the one that held the writer")
        let batches = after.batches - before.batches
        #expect(batches < writes)
        #expect(batches <= 5, "\(batches) batches: mostly the one behind the held writer")
        // Each write's effect committed: in the file, and in what the store serves.
        #expect(try store.rowCount(in: "bills") == writes)
        let reopened = try SQLiteStore(path: database.path, migrations: try StorageFixtures.migrations())
        for id in ids {
            #expect(try reopened.bill(id: id)?.id == id)
            #expect(try store.bill(id: id)?.id == id)
        }
    }

    @Test("in one batch, writes that fail after writing change nothing, and the others all commit")
    func failuresInOneBatch() async throws {
        let database = try await TestDatabase()
        let store = database.sqlite
        let device = database.device
        try await store.write { try $0.insert(try bill("bill_existing", device: device)) }
        let before = counters(store)
        let writes = 30
        // Every third write throws after inserting its bill; write 1 inserts a bill that exists,
        // which the database refuses (UNIQUE) in the middle of the batch.
        let fails = { @Sendable (index: Int) in index % 3 == 0 }
        let held = try await HeldWriter(store)
        let results = try await held.queue(writes) { index in
            let bill = try bill(index == 1 ? "bill_existing" : "bill_\(index)", device: device)
            try await store.write { transaction in
                try transaction.insert(bill)
                if fails(index) { throw Refused(index: index) }
            }
            return bill.id
        }
        #expect(counters(store).batches - before.batches <= 5)

        for (index, result) in results.enumerated() {
            switch (index, result) {
            case (1, .failure(let error)):
                #expect(error is StorageError, "\(error)")
            case (_, .failure(let error)):
                #expect(fails(index))
                #expect(error as? Refused == Refused(index: index))
            case (_, .success(let id)):
                #expect(index != 1 && !fails(index))
                #expect(id == "bill_\(index)")
            }
        }
        let committed = (0..<writes).filter { $0 != 1 && !fails($0) }.map { "bill_\($0)" }
        #expect(try store.rowCount(in: "bills") == committed.count + 1)
        let reopened = try SQLiteStore(path: database.path, migrations: try StorageFixtures.migrations())
        for id in committed {
            #expect(try reopened.bill(id: id) != nil)
            #expect(try store.bill(id: id) != nil)
        }
        for index in 0..<writes where fails(index) {
            #expect(try reopened.bill(id: "bill_\(index)") == nil)
            #expect(try store.bill(id: "bill_\(index)") == nil)
        }
    }

    @Test("a batch whose every write fails commits nothing, and each write gets its own error")
    func wholeBatchFails() async throws {
        let database = try await TestDatabase()
        let store = database.sqlite
        let device = database.device
        let held = try await HeldWriter(store)
        let results = try await held.queue(5) { index in
            let bill = try bill("bill_\(index)", device: device)
            try await store.write { transaction in
                try transaction.insert(bill)
                throw Refused(index: index)
            }
        }
        for (index, result) in results.enumerated() {
            #expect(throws: Refused(index: index)) { try result.get() }
        }
        #expect(try store.rowCount(in: "bills") == 0)
        #expect(try store.bill(id: "bill_0") == nil)
        // The writer goes on: the next write commits.
        try await store.write { try $0.insert(try bill("bill_after", device: device)) }
        #expect(try store.rowCount(in: "bills") == 1)
    }

    @Test("32 concurrent tasks of 10 writes each, every third failing after it wrote: the others all commit, the failing leave nothing")
    func failuresStayAlone() async throws {
        let database = try await TestDatabase()
        let device = database.device
        let store = database.sqlite
        let before = counters(store)
        let results = await concurrentResults(32) { task in
            var opened: [String] = []
            for round in 0..<10 {
                let bill = try bill("bill_t\(task)r\(round)", device: device)
                let fails = (task * 10 + round) % 3 == 0
                do {
                    try await store.write(durability: round % 4 == 0 ? .full : .normal) { transaction in
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
        for task in 0..<32 {
            for round in 0..<10 where (task * 10 + round) % 3 == 0 {
                #expect(try store.bill(id: "bill_t\(task)r\(round)") == nil)
                #expect(try reopened.bill(id: "bill_t\(task)r\(round)") == nil)
            }
        }
        let after = counters(store)
        #expect(after.jobs - before.jobs == 320)
        // Some commits took more than one write (32 writers at once).
        #expect(after.batches - before.batches < 320)
    }

    @Test("a write that committed succeeds even when the menu it reloads after the commit cannot be read")
    func menuReloadFailsAfterCommit() async throws {
        let database = try await TestDatabase()
        let store = database.sqlite
        let device = database.device
        try await store.write { try $0.insert(try bill("bill_before", device: device)) }
        // Another connection moves the menu's table away: the writer forgets its menu after
        // that commit, and reading it again after its own next commit fails.
        try await DatabaseQueue(path: database.path).write {
            try $0.execute(sql: "ALTER TABLE menu_items RENAME TO menu_items_moved")
        }
        for id in ["bill_after", "bill_next"] {
            try await store.write { try $0.insert(try bill(id, device: device)) }
            #expect(try store.bill(id: id)?.id == id)
        }
        let inFile = try await DatabaseQueue(path: database.path).read { try String.fetchAll($0, sql: "SELECT id FROM bills ORDER BY id") }
        #expect(inFile == ["bill_after", "bill_before", "bill_next"])
    }

    @Test("a write that cannot begin (the file is locked past the busy timeout) is StoreUnavailable (timedOut, 503 to a client), and the same write succeeds once the lock is free")
    func beginFails() async throws {
        let database = try await TestDatabase()
        // Another store on the file holds the write lock past the busy timeout.
        let blocker = try SQLiteStore(path: database.path, migrations: try StorageFixtures.migrations(), busyTimeout: 0.05)
        let busy = try SQLiteStore(path: database.path, migrations: try StorageFixtures.migrations(), busyTimeout: 0.05)
        let held = try await HeldWriter(blocker)
        defer { held.open() }
        let device = database.device
        let error = await #expect(throws: StoreUnavailable.self) {
            try await busy.write { try $0.insert(try bill("bill_busy", device: device)) }
        }
        #expect(error?.reason == .timedOut, "\(String(describing: error))")
        // Once the lock is free, the same store writes.
        try await held.release()
        try await busy.write { try $0.insert(try bill("bill_busy", device: device)) }
        #expect(try busy.bill(id: "bill_busy") != nil)
    }
}
