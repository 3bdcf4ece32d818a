import Foundation
import GRDB
import RoutemapDomain
@testable import RoutemapStorage
import Testing

@Suite("The store: settings (SQLite), demo menu, round trips, constraints")
struct SQLiteStoreTests {
    @Test("WAL, foreign keys, synchronous NORMAL and a busy timeout on writer and readers", .enabled(if: !TestDatabase.onPostgres, "about SQLite itself"))
    func connectionSettings() async throws {
        let database = try await TestDatabase()
        let writer = try database.sqlite.writerSettings()
        #expect(writer == SQLiteConnectionSettings(journalMode: "wal", foreignKeysEnabled: true, synchronous: 1, busyTimeoutMilliseconds: 5_000))
        // GRDB gives read-only connections a busy timeout of its own choosing (10 s in 7.10).
        let reader = try database.sqlite.readerSettings()
        #expect(reader.journalMode == "wal")
        #expect(reader.foreignKeysEnabled)
        #expect(reader.synchronous == 1)
        #expect(reader.busyTimeoutMilliseconds >= 5_000)
    }

    @Test("the demo menu: at least 12 items in at least 3 categories, USD, one unavailable, in menu order")
    func demoMenu() async throws {
        let database = try await TestDatabase()
        let menu = try database.store.menuItems()
        #expect(menu.count >= 12)
        #expect(Set(menu.map(\.category)).count >= 3)
        #expect(Set(menu.map(\.id)).count == menu.count)
        #expect(menu.allSatisfy { $0.currency == .usd && $0.priceMinor > 0 && !$0.name.isEmpty })
        #expect(menu.filter { !$0.available }.count == 1)
        #expect(menu.first?.id == "espresso")
        for id in ["latte", "espresso", "croissant", "bagel"] {
            #expect(menu.first { $0.id == id }?.available == true, "the end-to-end tests order \(id)")
        }
        #expect(menu.first { $0.id == "latte" } == MenuItem(id: "latte", name: "Latte", category: "coffee", priceMinor: 475, currency: .usd, available: true))
    }

    @Test("a bill round-trips with its lines in order, its rate, version and time")
    func billRoundTrip() async throws {
        let database = try await TestDatabase()
        let store = database.store
        let lines = try [("line_c", "latte", 3), ("line_a", "croissant", 1), ("line_b", "bagel", 2)].map { id, item, quantity in
            try BillLine(lineId: id, menuItemId: item, name: item.capitalized, quantity: quantity, unitPriceMinor: 123)
        }
        let createdAt = Date(timeIntervalSince1970: 1_732_262_100.123)
        var bill = try Bill(
            id: "bill_roundtrip", status: .open, lines: lines, currency: .usd, taxRate: TaxRate(basisPoints: 1_234)!,
            version: 4, createdAt: createdAt)
        try await store.write { [bill] in try $0.insert(bill) }
        #expect(try store.bill(id: bill.id) == bill)
        #expect(try store.bill(id: "bill_nope") == nil)

        try bill.removeLine(lineId: "line_a")
        try bill.add(MenuItem(id: "espresso", name: "Espresso", category: "coffee", priceMinor: 300, currency: .usd, available: true), quantity: 1, newLineId: "line_d")
        try bill.checkout()
        try await store.write { [bill] in try $0.update(bill) }
        let loaded = try #require(try store.bill(id: bill.id))
        #expect(loaded == bill)
        #expect(loaded.lines.map(\.lineId) == ["line_c", "line_b", "line_d"])
        #expect(loaded.status == .checkedOut)
        #expect(loaded.version == 7)
    }

    @Test("an update over the same or a newer stored version is refused as stale")
    func staleUpdate() async throws {
        let database = try await TestDatabase()
        let store = database.store
        var bill = try Bill(id: "bill_stale", currency: .usd, taxRate: StorageFixtures.rate875, createdAt: Date(timeIntervalSince1970: 0))
        try await store.write { [bill] in try $0.insert(bill) }
        /// The refusal of `bill`'s update, which must be for its being stale, not anything else.
        func expectStale(_ bill: Bill, sourceLocation: SourceLocation = #_sourceLocation) async {
            let error = await #expect(throws: StorageError.self, sourceLocation: sourceLocation) {
                try await store.write { try $0.update(bill) }
            }
            if case .staleBill(id: bill.id, version: bill.version)? = error { return }
            Issue.record("expected staleBill(\(bill.id), \(bill.version)), got \(String(describing: error))", sourceLocation: sourceLocation)
        }
        await expectStale(bill)
        try bill.add(MenuItem(id: "latte", name: "Latte", category: "coffee", priceMinor: 475, currency: .usd, available: true), quantity: 1)
        try await store.write { [bill] in try $0.update(bill) }
        await expectStale(bill)
        await expectStale(try Bill(id: "bill_missing", currency: .usd, taxRate: StorageFixtures.rate875, version: 2, createdAt: Date()))
    }

    @Test("foreign keys are enforced: a line for an unknown menu item, a payment for an unknown bill")
    func foreignKeys() async throws {
        let database = try await TestDatabase()
        let store = database.store
        let line = try BillLine(lineId: "line_x", menuItemId: "no-such-item", name: "Ghost", quantity: 1, unitPriceMinor: 100)
        let bill = try Bill(id: "bill_fk", lines: [line], currency: .usd, taxRate: StorageFixtures.rate875, createdAt: Date())
        let error = await #expect(throws: StorageError.self) { try await store.write { [bill] in try $0.insert(bill) } }
        let cause = String(describing: error?.underlyingError)
        #expect(cause.lowercased().contains("foreign key"))
        // The whole transaction rolled back: not even the bill row remains.
        #expect(try store.bill(id: "bill_fk") == nil)

        let payment = Payment(id: "pay_x", billId: "bill_none", receiptNumber: 1, method: .card, amountMinor: 0, tenderedMinor: 0, changeMinor: 0, createdAt: Date())
        await #expect(throws: StorageError.self) { try await store.write { try $0.insert(payment) } }
    }

    @Test("the schema's checks back the domain's rules")
    func checks() async throws {
        let database = try await TestDatabase()
        let store = database.store
        // Quantity 1000 passes the domain (with wider limits) but not the schema.
        let line = try BillLine(lineId: "line_big", menuItemId: "latte", name: "Latte", quantity: 1_000, unitPriceMinor: 475)
        let bill = try Bill(id: "bill_big", lines: [line], currency: .usd, taxRate: StorageFixtures.rate875, createdAt: Date())
        let error = await #expect(throws: StorageError.self) { try await store.write { [bill] in try $0.insert(bill) } }
        let cause = String(describing: error?.underlyingError)
        #expect(cause.lowercased().contains("check"))
    }

    @Test("errors from the transaction body come out unchanged and roll everything back")
    func bodyErrors() async throws {
        let database = try await TestDatabase()
        let store = database.store
        let bill = try Bill(id: "bill_rollback", currency: .usd, taxRate: StorageFixtures.rate875, createdAt: Date())
        await #expect(throws: POSError.billEmpty) {
            try await store.write { transaction in
                try transaction.insert(bill)
                throw POSError.billEmpty
            }
        }
        #expect(try store.bill(id: bill.id) == nil)
    }

    @Test("a full disk is StoreUnavailable (diskFull, 503 to a client), not a bug's error; nothing is written, and writes go on once there is room", .enabled(if: !TestDatabase.onPostgres, "about SQLite itself"))
    func diskFull() async throws {
        let database = try await TestDatabase()
        let store = database.sqlite
        // The file may not grow: as if the disk were full.
        let pages = try await store.writeTables(durability: .normal) { db in
            let count = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(count)")
            return count
        }
        #expect(pages > 0)
        let lines = (0..<200).map { _ in String(repeating: "x", count: 200) }
        do {
            try await store.writeTables(durability: .normal) { db in
                for (index, text) in lines.enumerated() {
                    try db.execute(sql: "INSERT INTO menu_categories (id, name, position) VALUES (?, ?, ?)", arguments: ["full_\(index)", text, 1000 + index])
                }
            }
            Issue.record("the writes fit in a file that may not grow")
        } catch let error as StoreUnavailable {
            #expect(error.reason == .diskFull, "\(error)")
        }
        #expect(try store.readTables("counting") { try Int.fetchOne($0, sql: "SELECT count(*) FROM menu_categories WHERE id LIKE 'full_%'") } == 0)
        try await store.writeTables(durability: .normal) { db in try db.execute(sql: "PRAGMA max_page_count = 1073741823") }
        try await store.writeTables(durability: .normal) { db in
            try db.execute(sql: "INSERT INTO menu_categories (id, name, position) VALUES ('full_ok', 'Fine', 5000)")
        }
    }

    @Test("the newest unpaid bill of a device: open or checked out, latest created, ties to the later insert, its own only")
    func newestUnpaid() async throws {
        let database = try await TestDatabase()
        let store = database.store
        #expect(try store.currentBill(deviceId: "dev_A") == nil)
        @Sendable func bill(_ id: String, _ seconds: TimeInterval, _ status: BillStatus, _ device: String? = "dev_A") throws -> Bill {
            try Bill(
                id: id, status: status, currency: .usd, taxRate: StorageFixtures.rate875,
                createdAt: Date(timeIntervalSince1970: seconds), deviceId: device)
        }
        try await store.write { transaction in
            try transaction.insert(try bill("bill_old", 100, .open))
            try transaction.insert(try bill("bill_paid", 300, .paid))
            try transaction.insert(try bill("bill_tie_first", 200, .checkedOut))
            try transaction.insert(try bill("bill_tie_second", 200, .open))
            // Newer, but another device's, or no device's.
            try transaction.insert(try bill("bill_other", 400, .open, "dev_B"))
            try transaction.insert(try bill("bill_nobody", 500, .open, nil))
        }
        #expect(try store.currentBill(deviceId: "dev_A")?.id == "bill_tie_second")
        #expect(try await store.write { try $0.currentBill(deviceId: "dev_A")?.id } == "bill_tie_second")
        #expect(try store.currentBill(deviceId: "dev_B")?.id == "bill_other")
        #expect(try store.currentBill(deviceId: "dev_C") == nil)
        #expect(try store.bill(id: "bill_other")?.deviceId == "dev_B")
        #expect(try store.bill(id: "bill_nobody")?.deviceId == nil)
    }

    @Test(
        "the current-bill query reads the partial index of unsettled bills in its own order: no scan of every bill, no sort",
        .enabled(if: !TestDatabase.onPostgres, "about SQLite itself"))
    func currentBillUsesIndexInOrder() async throws {
        let database = try await TestDatabase()
        let store = database.sqlite
        let plan = try store.onWriter("explaining") { database in
            try Row.fetchAll(database, sql: "EXPLAIN QUERY PLAN " + SQLiteTransaction.currentBillSQL, arguments: ["dev_A"])
                .map { $0["detail"] as String }
        }
        #expect(plan == ["SEARCH bills USING INDEX bills_unsettled_by_device_selected_at (device_id=?)"], "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test("close checkpoints the log; the store then refuses work", .enabled(if: !TestDatabase.onPostgres, "about SQLite itself"))
    func close() async throws {
        let database = try await TestDatabase()
        _ = try await database.till().openBill(device: database.device)
        try database.sqlite.close()
        let walSize = (try? FileManager.default.attributesOfItem(atPath: database.path + "-wal")[.size] as? Int) ?? 0
        #expect(walSize == 0)
        #expect(throws: StorageError.self) { try database.sqlite.ping() }
        #expect(throws: StorageError.self) { try database.sqlite.menuItems() }
        // The data is in the main file: a new store sees it.
        let reopened = try SQLiteStore(path: database.path, migrations: try StorageFixtures.migrations())
        #expect(try reopened.currentBill(deviceId: database.device) != nil)
        try reopened.ping()
    }

    @Test("a corrupt row is reported, not trapped on", .enabled(if: !TestDatabase.onPostgres, "about SQLite itself"))
    func corruptRow() async throws {
        let database = try await TestDatabase()
        let bill = try await database.till().openBill(device: database.device)
        try database.sqlite.onWriter("corrupting") { try $0.execute(sql: "UPDATE bills SET total_minor = 5, tax_minor = 5 WHERE id = ?", arguments: [bill.id]) }
        let error = #expect(throws: StorageError.self) { try database.sqlite.bill(id: bill.id) }
        guard case .invalidRow(let table, let id, _) = error else {
            Issue.record("expected invalidRow, got \(String(describing: error))")
            return
        }
        #expect(table == "bills")
        #expect(id == bill.id)
    }
}
