import Foundation
import GRDB
import RoutemapJSON
import RoutemapTestSupport
import Testing

extension HeavySuites {
    /// `routemap backup` on a live server under a payment load, then the README's restore:
    /// stop, put the copy in place of the database (and its -wal/-shm), start.
    @Suite("Backup and restore", .enabled(if: !TestPostgres.isEnabled, "reads the SQLite file"))
    struct BackupTests {
        typealias Acknowledged = DurabilityTests.Acknowledged

        @Test("back up under load, stop, restore, start: every payment acknowledged before the backup began is there, nothing half-written")
        func backupUnderLoadAndRestore() throws {
            let process = try RoutemapProcess(sqliteOnly: true)
            var restarted: RoutemapProcess?
            defer {
                restarted?.cleanUp()
                process.cleanUp()
            }
            let tills = try PayingTills(process)
            let (tokens, acknowledged) = (tills.tokens, tills.acknowledged)
            tills.waitForPayments(20)

            // The backup runs in its own process while the four tills keep paying.
            let before = acknowledged.all
            let backupPath = process.directory.appendingPathComponent("backup.sqlite").path
            let backup = try runRoutemap(["backup", backupPath, "--db", process.databasePath])
            let afterBackup = acknowledged.all.count
            tills.waitForPayments(afterBackup + 10)
            tills.stop()
            try #require(before.count >= 20, "only \(before.count) payments before the deadline")
            try #require(backup.status == 0, "\(backup.output)")
            #expect(backup.output.contains("backed up"), "\(backup.output)")
            #expect(acknowledged.all.count >= afterBackup + 10, "the server stopped paying after the backup")
            #expect(process.stop() == 0, "\(process.outputText)")

            // Restore, as the README says: the server is stopped; the database and its -wal and
            // -shm files are removed; the copy takes the database's name.
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: process.databasePath + suffix) }
            try FileManager.default.copyItem(atPath: backupPath, toPath: process.databasePath)
            let server = try RoutemapProcess(databasePath: process.databasePath, sqliteOnly: true)
            restarted = server

            // Over HTTP: each payment acknowledged before the backup began is there, and a pay
            // retried with its key replays it (the recorded answers came back too).
            for payment in before {
                let client = try TestHTTPClient(port: server.port)
                client.defaultHeaders = [("Authorization", "Bearer \(payment.token)")]
                let bill = try client.request("GET", "/v1/bills/\(payment.billId)")
                #expect(bill.status == 200, "\(bill.text)")
                #expect(bill.json["status"]?.stringValue == "paid", "\(payment.billId) is not paid after the restore")
                let replay = try client.request(
                    "POST", "/v1/bills/\(payment.billId)/pay",
                    headers: [("Content-Type", "application/json"), ("Idempotency-Key", payment.key)], body: payment.request)
                #expect(replay.status == 200, "\(replay.text)")
                #expect(replay.json["payment"]?["id"]?.stringValue == payment.paymentId)
            }
            // New work on the restored database.
            let client = try server.client()
            #expect(try client.request("POST", "/v1/bills", headers: [("Idempotency-Key", UUID().uuidString)]).status == 201)

            // In the file: intact, and every bill agrees with its lines and its payment.
            let database = try DatabaseQueue(path: server.databasePath)
            try database.read { db in
                #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
                #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
                for payment in before {
                    #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM payments WHERE id = ? AND bill_id = ?", arguments: [payment.paymentId, payment.billId]) == 1)
                }
                let restoredPayments = try Int.fetchOne(db, sql: "SELECT count(*) FROM payments") ?? 0
                #expect(restoredPayments >= before.count)
                #expect(restoredPayments <= acknowledged.all.count + tokens.count, "the copy has payments no till could have made")
                try Self.expectConsistentBills(db)
            }
        }

        /// Every bill's totals follow from its lines (tax per line, rounded half to even), a
        /// paid bill has exactly one payment of its total, and no other bill has one.
        static func expectConsistentBills(_ db: Database) throws {
            let bills = try Row.fetchAll(db, sql: "SELECT id, status, tax_rate_bps, subtotal_minor, tax_minor, total_minor FROM bills")
            #expect(!bills.isEmpty)
            for bill in bills {
                let id: String = bill["id"]
                let status: String = bill["status"]
                let rate: Int64 = bill["tax_rate_bps"]
                let subtotal: Int64 = bill["subtotal_minor"]
                let taxMinor: Int64 = bill["tax_minor"]
                let total: Int64 = bill["total_minor"]
                let lines = try Row.fetchAll(db, sql: "SELECT quantity, unit_price_minor FROM bill_lines WHERE bill_id = ?", arguments: [id])
                let lineTotals: [Int64] = lines.map { line in
                    let quantity: Int64 = line["quantity"]
                    let unitPrice: Int64 = line["unit_price_minor"]
                    return quantity * unitPrice
                }
                let tax = lineTotals.reduce(Int64(0)) { $0 + roundedHalfToEven($1 * rate, dividedBy: 10_000) }
                #expect(subtotal == lineTotals.reduce(0, +), "bill \(id): subtotal disagrees with its lines")
                #expect(taxMinor == tax, "bill \(id): tax disagrees with its lines")
                let amounts = try Int64.fetchAll(db, sql: "SELECT amount_minor FROM payments WHERE bill_id = ?", arguments: [id])
                if status == "paid" {
                    #expect(amounts == [total], "paid bill \(id) has payments \(amounts), not one of its total \(total)")
                } else {
                    #expect(amounts.isEmpty, "unpaid bill \(id) has a payment")
                }
            }
        }

        static func roundedHalfToEven(_ numerator: Int64, dividedBy divisor: Int64) -> Int64 {
            let quotient = numerator / divisor
            let twiceRemainder = 2 * (numerator % divisor)
            if twiceRemainder > divisor || (twiceRemainder == divisor && quotient % 2 == 1) { return quotient + 1 }
            return quotient
        }
    }
}

/// `routemap backup`'s refusals and `routemap migrate --dry-run`, on real files.
@Suite("Backup and migrate --dry-run input", .enabled(if: !TestPostgres.isEnabled, "reads the SQLite file"))
struct BackupInputTests {
    let directory: URL
    let migrations = RoutemapProcess.repositoryRoot.appendingPathComponent("Migrations").path

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("routemap-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A migrated database with one paid-for bill's worth of nothing: just the shipped schema and menu.
    func migratedDatabase(_ name: String = "db.sqlite") throws -> String {
        let database = path(name)
        let migrate = try runRoutemap(["migrate", "--db", database, "--migrations", migrations])
        try #require(migrate.status == 0, "\(migrate.output)")
        return database
    }

    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() }

    @Test("backup without PATH is a usage error (64)")
    func missingPath() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try runRoutemap(["backup", "--db", try migratedDatabase()])
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains("<path>"), "\(result.output)")
    }

    @Test("backup refuses an existing PATH (73) and leaves it alone; --force replaces it with a good copy")
    func existingPath() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try migratedDatabase()
        let target = path("existing.sqlite")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
        let listing = try files()
        let refused = try runRoutemap(["backup", target, "--db", database])
        #expect(refused.status == 73, "\(refused.output)")
        #expect(refused.output.contains("exists; pass --force"), "\(refused.output)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")
        let after = try files()
        #expect(after == listing, "a refused backup left files behind")

        let forced = try runRoutemap(["backup", target, "--force", "--db", database])
        #expect(forced.status == 0, "\(forced.output)")
        let copy = try DatabaseQueue(path: target)
        let (integrity, menuItems) = try copy.read { db in
            (try String.fetchAll(db, sql: "PRAGMA integrity_check"), try Int.fetchOne(db, sql: "SELECT count(*) FROM menu_items") ?? 0)
        }
        #expect(integrity == ["ok"])
        #expect(menuItems > 0)
    }

    @Test("backup refuses: no database (66, nothing created), the database itself or its -wal, -shm, -journal (64), a missing directory (73), a file that is not a routemap database (65)")
    func refusals() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = try runRoutemap(["backup", path("copy.sqlite"), "--db", path("nothing.sqlite")])
        #expect(missing.status == 66, "\(missing.output)")
        #expect(missing.output.contains("no database at"), "\(missing.output)")
        let left = try files()
        #expect(left.isEmpty, "a backup of nothing created \(left)")

        let database = try migratedDatabase()
        let itself = try runRoutemap(["backup", database, "--force", "--db", database])
        #expect(itself.status == 64, "\(itself.output)")
        // Nor its own files: a copy over its -wal would take every change not yet checkpointed.
        let companions = ["-wal", "-shm", "-journal"]
        let before = companions.map { try? Data(contentsOf: URL(fileURLWithPath: database + $0)) }
        for suffix in companions {
            let own = try runRoutemap(["backup", database + suffix, "--force", "--db", database])
            #expect(own.status == 64, "\(suffix): \(own.output)")
            #expect(own.output.contains("one of its own files"), "\(own.output)")
        }
        #expect(companions.map { try? Data(contentsOf: URL(fileURLWithPath: database + $0)) } == before)
        try FileManager.default.createSymbolicLink(atPath: path("link.sqlite"), withDestinationPath: database)
        let throughLink = try runRoutemap(["backup", database + "-wal", "--force", "--db", path("link.sqlite")])
        #expect(throughLink.status == 64, "\(throughLink.output)")
        let noDirectory = try runRoutemap(["backup", path("no/such/dir/copy.sqlite"), "--db", database])
        #expect(noDirectory.status == 73, "\(noDirectory.output)")

        let foreign = path("foreign.sqlite")
        try DatabaseQueue(path: foreign).write { try $0.execute(sql: "CREATE TABLE t (x INTEGER)") }
        let notOurs = try runRoutemap(["backup", path("copy.sqlite"), "--db", foreign])
        #expect(notOurs.status == 65, "\(notOurs.output)")
        #expect(notOurs.output.contains("not a routemap database"), "\(notOurs.output)")
        #expect(!FileManager.default.fileExists(atPath: path("copy.sqlite")))
        // Nor is a file that is not SQLite at all.
        let text = path("notes.txt")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: text))
        let notSQLite = try runRoutemap(["backup", path("copy.sqlite"), "--db", text])
        #expect(notSQLite.status == 65, "\(notSQLite.output)")
        #expect(notSQLite.output.contains("not a routemap database"), "\(notSQLite.output)")
        #expect(!FileManager.default.fileExists(atPath: path("copy.sqlite")))
    }

    @Test("backup of a database with a damaged page is 65 (the data), not 1 (try again), and leaves nothing")
    func damagedDatabase() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try migratedDatabase()
        // Overwrite pages of a table's b-tree: pages integrity_check cannot walk. The pages of a
        // table, not the middle of the file: which pages are there changes with every migration,
        // and a damaged schema page makes a file SQLite cannot open at all (66, not this test).
        // Found on a copy elsewhere: opening the database itself would leave files beside it.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("routemap-pages-\(UUID().uuidString).sqlite").path
        try FileManager.default.copyItem(atPath: database, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let (pageSize, pages) = try DatabaseQueue(path: copy).read { db in
            (
                try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096,
                try Int.fetchAll(db, sql: "SELECT pageno FROM dbstat WHERE name = 'trivia_questions' AND pagetype = 'leaf' ORDER BY pageno")
            )
        }
        let page = try #require(pages.dropFirst(pages.count / 2).first)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: database))
        try handle.seek(toOffset: UInt64((page - 1) * pageSize))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: pageSize))
        try handle.close()
        let listing = try files()
        let damaged = try runRoutemap(["backup", path("copy.sqlite"), "--db", database])
        #expect(damaged.status == 65, "\(damaged.output)")
        #expect(damaged.output.contains("integrity check"), "\(damaged.output)")
        #expect(try files() == listing, "a failed backup left files behind")
    }

    @Test("backup removes the hidden copies of a killed backup to the same PATH, and only those whose process is gone")
    func abandonedCopies() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try migratedDatabase()
        // Process ids: one no process can have (above pid_max), and this test's own (running).
        let abandoned = [".copy.sqlite.partial-99999999-A", ".copy.sqlite.partial-99999999-A-journal"]
        let running = ".copy.sqlite.partial-\(getpid())-B"
        let otherPath = ".other.sqlite.partial-99999999-C"
        for name in abandoned + [running, otherPath] { try Data("partial".utf8).write(to: URL(fileURLWithPath: path(name))) }
        let backup = try runRoutemap(["backup", path("copy.sqlite"), "--db", database])
        #expect(backup.status == 0, "\(backup.output)")
        let left = try files()
        for name in abandoned { #expect(!left.contains(name), "\(name) is still there") }
        #expect(left.contains(running) && left.contains(otherPath), "\(left)")
    }

    @Test("migrate --dry-run lists pending migrations and changes nothing")
    func dryRun() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        // A missing database: everything is pending, and no file appears.
        let fresh = try runRoutemap(["migrate", "--dry-run", "--db", path("new.sqlite"), "--migrations", migrations])
        #expect(fresh.status == 0, "\(fresh.output)")
        #expect(fresh.output.contains("does not exist"), "\(fresh.output)")
        #expect(fresh.output.contains("0001_schema") && fresh.output.contains("0005_"), "\(fresh.output)")
        #expect(try files().isEmpty)

        // A database at migration 0003: every later one is pending; the file is untouched.
        let older = directory.appendingPathComponent("older")
        try FileManager.default.createDirectory(at: older, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: migrations) where file < "0004" {
            try FileManager.default.copyItem(atPath: migrations + "/" + file, toPath: older.appendingPathComponent(file).path)
        }
        let database = path("db.sqlite")
        #expect(try runRoutemap(["migrate", "--db", database, "--migrations", older.path]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: database))
        let listing = try files()
        let pending = try runRoutemap(["migrate", "--dry-run", "--db", database, "--migrations", migrations])
        #expect(pending.status == 0, "\(pending.output)")
        let later = try FileManager.default.contentsOfDirectory(atPath: migrations).filter { $0.hasSuffix(".sql") && $0 >= "0004" }
        #expect(later.count >= 2)
        #expect(pending.output.contains("has \(later.count) pending"), "\(pending.output)")
        for file in later { #expect(pending.output.contains(String(file.prefix(5))), "\(file): \(pending.output)") }
        #expect(!pending.output.contains("0003_"), "\(pending.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == bytes, "--dry-run changed the database")
        #expect(try files() == listing, "--dry-run left files behind")

        // Applied for real, then nothing is pending.
        #expect(try runRoutemap(["migrate", "--db", database, "--migrations", migrations]).status == 0)
        let upToDate = try runRoutemap(["migrate", "--dry-run", "--db", database, "--migrations", migrations])
        #expect(upToDate.output.contains("nothing pending"), "\(upToDate.output)")
    }
}
