import Foundation
import GRDB
import RoutemapJSON
import RoutemapTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension HeavySuites {
    /// SIGKILL in the middle of concurrent order cycles: no acknowledged payment may be lost,
    /// none may be doubled, and a retried pay must replay.
    @Suite("Durability under kill -9", .enabled(if: !TestPostgres.isEnabled, "reads the SQLite file"))
    struct DurabilityTests {
        /// What a worker saw acknowledged: a paid bill, the key it paid with, and the answer.
        struct Acknowledged: Sendable {
            let token: String
            let billId: String
            let key: String
            let paymentId: String
            let request: [UInt8]
        }

        /// With the default checkpoint threshold, the writes of the run are all in the
        /// write-ahead log when the process dies; with 32 pages, checkpoints copy it into the
        /// database file, off the writer, all through the run and at the kill.
        @Test("kill -9 during order cycles, restart: every acknowledged payment is there once and replays", arguments: [10_000, 32])
        func killDuringOrderCycles(checkpointPages: Int) throws {
            let process = try RoutemapProcess(arguments: ["--checkpoint-pages", "\(checkpointPages)"], sqliteOnly: true)
            let tills = try PayingTills(process)
            // Kill once at least 10 payments were acknowledged, while the workers keep going.
            tills.waitForPayments(10)
            if checkpointPages < 10_000 {
                // The log's length falls back while the tills write: checkpoints run, and the
                // log starts over.
                var lengths: [Double] = []
                for _ in 0..<25 {
                    let metrics = try process.client(authorized: false).request("GET", "/metrics")
                    lengths.append(Exposition(text: metrics.text).value("routemap_sqlite_wal_pages", [:]) ?? -1)
                    Thread.sleep(forTimeInterval: 0.02)
                }
                #expect(zip(lengths, lengths.dropFirst()).contains { $1 < $0 }, "the log never started over: \(lengths)")
            } else {
                Thread.sleep(forTimeInterval: 0.05)
            }
            kill(process.process.processIdentifier, SIGKILL)
            process.process.waitUntilExit()
            tills.stop()
            let paid = tills.acknowledged.all
            try #require(paid.count >= 10, "only \(paid.count) payments were acknowledged before the deadline")

            let restarted = try RoutemapProcess(databasePath: process.databasePath, sqliteOnly: true)
            defer {
                restarted.cleanUp()
                process.cleanUp()
            }
            let database = try DatabaseQueue(path: process.databasePath)
            try database.read { db in
                for payment in paid {
                    let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM payments WHERE id = ? AND bill_id = ?", arguments: [payment.paymentId, payment.billId])
                    #expect(rows == 1, "acknowledged payment \(payment.paymentId) of \(payment.billId) is missing")
                    #expect(try String.fetchOne(db, sql: "SELECT status FROM bills WHERE id = ?", arguments: [payment.billId]) == "paid")
                }
                // No bill is both paid and still open: every payment's bill is paid, every paid bill has one payment.
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM payments p JOIN bills b ON b.id = p.bill_id WHERE b.status != 'paid'") == 0)
                #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM bills b WHERE b.status = 'paid' AND (SELECT count(*) FROM payments p WHERE p.bill_id = b.id) != 1") == 0)
            }
            // Each acknowledged pay, sent again with its key, replays the same payment.
            for payment in paid {
                let client = try TestHTTPClient(port: restarted.port)
                let replay = try client.request(
                    "POST", "/v1/bills/\(payment.billId)/pay",
                    headers: [("Authorization", "Bearer \(payment.token)"), ("Content-Type", "application/json"), ("Idempotency-Key", payment.key)],
                    body: payment.request)
                #expect(replay.status == 200, "\(replay.text)")
                #expect(replay.header("Idempotent-Replayed") == "true")
                #expect(replay.json["payment"]?["id"]?.stringValue == payment.paymentId)
            }
        }

        /// New bill, three items, checkout, pay — again and again until `until` says stop or
        /// the server goes away. Records each pay answered 200.
        static func orderCycles(port: Int, token: String, until stop: () -> Bool, acknowledged: Collected<Acknowledged>) {
            guard let client = try? TestHTTPClient(port: port, timeout: .seconds(5)) else { return }
            client.defaultHeaders = [("Authorization", "Bearer \(token)")]
            while !stop() {
                do {
                    let created = try client.request("POST", "/v1/bills", headers: [("Idempotency-Key", UUID().uuidString)])
                    guard created.status == 201, let billId = created.json["bill"]?["id"]?.stringValue else { return }
                    var total: Int64 = 0
                    for item in ["latte", "croissant", "espresso"] {
                        let added = try client.json("POST", "/v1/bills/\(billId)/items", ["menuItemId": .string(item), "quantity": 1])
                        guard added.status == 200 else { return }
                    }
                    let checkout = try client.request("POST", "/v1/bills/\(billId)/checkout", headers: [("Idempotency-Key", UUID().uuidString)])
                    guard checkout.status == 200 else { return }
                    total = checkout.json["bill"]?["totalMinor"]?.int64Value ?? -1
                    let key = "pay-\(UUID().uuidString)"
                    let body = JSON.object(["method": "card", "amountMinor": .int(total)]).encoded()
                    let paid = try client.request(
                        "POST", "/v1/bills/\(billId)/pay", headers: [("Content-Type", "application/json"), ("Idempotency-Key", key)], body: body)
                    guard paid.status == 200, let paymentId = paid.json["payment"]?["id"]?.stringValue else { return }
                    acknowledged.append(Acknowledged(token: token, billId: billId, key: key, paymentId: paymentId, request: body))
                } catch {
                    return  // the server was killed
                }
            }
        }
    }
}

/// Values appended from many threads.
final class Collected<Value: Sendable>: @unchecked Sendable {
    // @unchecked: every access to `items` holds `lock`.
    private let lock = NSLock()
    private var items: [Value] = []
    func append(_ item: Value) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }
    var all: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// Tills of one server (a device each) running order cycles (`HeavySuites.DurabilityTests.orderCycles`) on
/// threads of their own until stopped.
final class PayingTills: Sendable {
    let tokens: [String]
    let acknowledged = Collected<HeavySuites.DurabilityTests.Acknowledged>()
    private let stopped = Collected<Bool>()
    private let group = DispatchGroup()

    init(_ process: RoutemapProcess, count: Int = 4) throws {
        tokens = try (0..<count).map { try process.enroll(name: "till \($0)") }
        let (port, acknowledged, stopped) = (process.port, acknowledged, stopped)
        for token in tokens {
            DispatchQueue.global().async(group: group) {
                HeavySuites.DurabilityTests.orderCycles(port: port, token: token, until: { !stopped.all.isEmpty }, acknowledged: acknowledged)
            }
        }
    }

    /// Waits until `count` payments in all were acknowledged, or a minute went by.
    func waitForPayments(_ count: Int) {
        let deadline = Date().addingTimeInterval(60)
        while acknowledged.all.count < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// Stops every till and waits for them.
    func stop() {
        stopped.append(true)
        group.wait()
    }
}
