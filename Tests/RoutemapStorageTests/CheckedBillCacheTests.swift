import Foundation
import RoutemapDomain
import RoutemapPostgres
import RoutemapTestSupport
import Testing

/// On PostgreSQL a node answers bill reads from the bills it read lately, but only once the
/// database confirmed their versions after the read began: a read on one node answers with what
/// another node committed before it, and the cache is used (so the check is what is tested).
@Suite("Checked bill cache on PostgreSQL", .enabled(if: TestDatabase.onPostgres, "about the PostgreSQL store"))
struct CheckedBillCacheTests {
    /// The test store's version check deadline: long, so that these tests count the cache's
    /// hits, not the machine's speed. With the production deadline (six seconds), a run of every
    /// PostgreSQL suite at once on two busy cores let checks expire ("gave no answer in time"),
    /// and those reads rightly went to the database instead; the deadline has tests of its own
    /// (`VersionCheckTests`).
    private static let patientCheck: Duration = .seconds(120)

    /// Two nodes on one database: the test's store (`a`) and another (`b`), with a till on `b`.
    private func nodes(_ database: TestDatabase) throws -> (a: PostgresStore, b: Till) {
        let a = try #require(database.store as? PostgresStore)
        let b = Till(store: try database.reopen(), taxRate: StorageFixtures.rate875, currency: .usd)
        return (a, b)
    }

    @Test("a read answers with what another node committed before it, from the cache when nothing moved")
    func readsSeeOtherNodes() async throws {
        let database = try await TestDatabase(versionCheckDeadline: Self.patientCheck)
        let device = database.device
        let (a, b) = try nodes(database)
        let reader = Till(store: a, taxRate: StorageFixtures.rate875, currency: .usd).reader(for: device)

        var bill = try await b.openBill(device: device)
        for round in 1...10 {
            let id = bill.id
            // Twice: the first may fill the cache, the second is answered from it.
            for _ in 1...2 {
                #expect(try await a.reading { try reader.currentBill() } == bill, "round \(round)")
                #expect(try await a.reading { try reader.bill(id: id) } == bill, "round \(round)")
            }
            bill = try await b.addItem(billId: id, device: device, menuItemId: "latte", quantity: 1)
            // The very next read on the other node sees the new line.
            #expect(try await a.reading { try reader.bill(id: id) } == bill, "round \(round)")
            #expect(try await a.reading { try reader.bill(id: id) }.lines.map(\.quantity).reduce(0, +) == round)
        }

        // Another bill becomes the device's current one on the other node.
        let next = try await b.openBill(device: device)
        #expect(try await a.reading { try reader.currentBill() } == next)
        #expect(try await a.reading { try reader.currentBill() } == next)
        // The first one is still there, as it is now.
        let first = bill
        #expect(try await a.reading { try reader.bill(id: first.id) } == first)

        let counts = a.cachedReads
        #expect(counts.confirmed >= 30, "\(counts)")
        #expect(counts.outOfDate >= 10, "\(counts)")
    }

    @Test("a bill this node just wrote is read from the cache, confirmed, with no query of its own")
    func ownWrites() async throws {
        let database = try await TestDatabase(versionCheckDeadline: Self.patientCheck)
        let device = database.device
        let (a, _) = try nodes(database)
        let till = Till(store: a, taxRate: StorageFixtures.rate875, currency: .usd)
        let reader = till.reader(for: device)
        let opened = try await till.openBill(device: device)
        let added = try await till.addItem(billId: opened.id, device: device, menuItemId: "latte", quantity: 1)
        let before = a.cachedReads
        #expect(try await a.reading { try reader.bill(id: opened.id) } == added)
        let after = a.cachedReads
        #expect(after.confirmed == before.confirmed + 1 && after.outOfDate == before.outOfDate, "\(before) → \(after)")
    }

    @Test("after the database's history went back (a failover to a standby that missed commits), a version made again with other content is read as the database holds it")
    func historyGoesBack() async throws {
        let database = try await TestDatabase(versionCheckDeadline: Self.patientCheck)
        let url = try #require(database.url)
        let device = database.device
        let (a, b) = try nodes(database)
        let reader = Till(store: a, taxRate: StorageFixtures.rate875, currency: .usd).reader(for: device)
        let kept = try await b.addItem(billId: try await b.openBill(device: device).id, device: device, menuItemId: "latte", quantity: 1)
        let id = kept.id
        try TestPostgres.keepBill(url, id: id)
        let lost = try await b.addItem(billId: id, device: device, menuItemId: "cappuccino", quantity: 1)
        for _ in 1...2 { #expect(try await a.reading { try reader.bill(id: id) } == lost) }

        // The commit that added the cappuccino is lost, as on a standby promoted without it.
        try TestPostgres.loseCommitsSinceKept(url)
        #expect(try b.bill(id: id, device: device) == kept)
        // Another node makes the same version again, with an espresso.
        let made = try await b.addItem(billId: id, device: device, menuItemId: "espresso", quantity: 1)
        #expect(made.version == lost.version && made != lost)
        for _ in 1...2 { #expect(try await a.reading { try reader.bill(id: id) } == made) }
    }

    @Test("a device with no current bill reads as none until another node opens one")
    func noCurrentBill() async throws {
        let database = try await TestDatabase(versionCheckDeadline: Self.patientCheck)
        let device = database.device
        let (a, b) = try nodes(database)
        let reader = Till(store: a, taxRate: StorageFixtures.rate875, currency: .usd).reader(for: device)
        #expect(try await a.reading { try reader.currentBill() } == nil)
        #expect(try await a.reading { try reader.currentBill() } == nil)
        #expect(a.cachedReads.confirmed >= 1)
        let bill = try await b.openBill(device: device)
        #expect(try await a.reading { try reader.currentBill() } == bill)
    }

    @Test("a read the cache cannot answer whole, or whose body throws, gets what the database holds")
    func mixedReads() async throws {
        let database = try await TestDatabase(versionCheckDeadline: Self.patientCheck)
        let device = database.device
        let (a, b) = try nodes(database)
        let reader = Till(store: a, taxRate: StorageFixtures.rate875, currency: .usd).reader(for: device)
        let opened = try await b.openBill(device: device)
        let bill = try await b.addItem(billId: opened.id, device: device, menuItemId: "latte", quantity: 1)
        _ = try await a.reading { try reader.bill(id: bill.id) }

        // A bill then a payment: the payment is not cached, so the whole read goes to the database.
        let total = try await b.checkout(billId: bill.id, device: device).totalMinor
        let outcome = try await b.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: total))
        let (read, payment) = try await a.reading { (try reader.bill(id: bill.id), try a.payment(id: outcome.payment.id)) }
        #expect(read == outcome.bill)
        #expect(payment == outcome.payment)

        // A body that swallows the cache's miss still gets the database's answer: the bill it
        // reads is cached and still the latest, so only the miss itself can send it there.
        let seen = try await a.reading { () -> String in
            _ = try reader.bill(id: bill.id)
            return (try? a.payment(id: outcome.payment.id))?.id ?? "none"
        }
        #expect(seen == outcome.payment.id)
        let other = try await b.openBill(device: device)

        // A bill another device owns reads as missing, from the cache or not.
        let stranger = try await database.enrollDevice()
        let strangers = Till(store: a, taxRate: StorageFixtures.rate875, currency: .usd).reader(for: stranger)
        for _ in 1...2 {
            await #expect(throws: POSError.billNotFound(other.id)) { try await a.reading { try strangers.bill(id: other.id) } }
        }
    }
}
