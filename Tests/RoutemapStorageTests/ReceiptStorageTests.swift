import Foundation
import RoutemapDomain
import RoutemapPostgres
@testable import RoutemapStorage
import RoutemapTestSupport
import Testing

/// Receipt numbers and receipts on a real database (SQLite, or PostgreSQL when
/// `ROUTEMAP_TEST_DATABASE_URL` is set): in order, without gaps, across store instances (nodes),
/// and given to the payments a database held before migration 0019.
@Suite("Receipts on a real database")
struct ReceiptStorageTests {
    /// A checked-out bill of `device` holding two lattes (1033); tips' tests use it too.
    func checkedOut(_ till: Till, _ device: String) async throws -> Bill {
        let bill = try await till.addItem(billId: try await till.openBill(device: device).id, device: device, menuItemId: "latte", quantity: 2)
        return try await till.checkout(billId: bill.id, device: device)
    }

    private func pay(_ till: Till, _ bill: Bill, _ device: String, amount: Int64? = nil, key: IdempotencyKey<PaymentOutcome>? = nil)
        async throws -> IdempotentOutcome<PaymentOutcome>
    {
        try await till.pay(billId: bill.id, device: device, PaymentRequest(method: .card, amountMinor: amount ?? bill.totalMinor), idempotency: key)
    }

    @Test("payments are numbered 1, 2, 3 in order, stored and read back by id and by bill, by this store and a new one; the receipt reads them")
    func numbersStored() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        var payments: [Payment] = []
        for _ in 1...3 {
            let bill = try await checkedOut(till, database.device)
            payments.append(try #require(try await pay(till, bill, database.device).performedValue).payment)
        }
        #expect(payments.map(\.receiptNumber) == [1, 2, 3])
        for store in [database.store, try database.reopen()] {
            for payment in payments {
                #expect(try store.payment(id: payment.id) == payment)
                #expect(try store.bill(id: payment.billId)?.completingPayment == payment)
            }
            let receipt = try Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd).receipt(
                billId: payments[1].billId, caller: .till(database.device))
            #expect(try receipt.payment == payments[1] && receipt.bill == store.bill(id: payments[1].billId))
            #expect(receipt.refunds.refunds.isEmpty && receipt.refunds.refundedMinor == 0)
        }
    }

    @Test("no gaps: a pay rolled back after inserting its payment, and a refusal recorded under its key, leave their number to the next payment")
    func noGaps() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let device = database.device
        let first = try await checkedOut(till, device)
        #expect(try #require(try await pay(till, first, device).performedValue).payment.receiptNumber == 1)

        // Refused under a key for the bill's state (not checked out yet): the refusal is recorded,
        // so this transaction commits, without a number.
        let open = try await till.addItem(billId: try await till.openBill(device: device).id, device: device, menuItemId: "latte", quantity: 2)
        let key = Keys.payment("refused", fingerprint: "POST /v1/bills/\(open.id)/pay")
        await #expect(throws: POSError.billNotCheckedOut(.open)) { try await pay(till, open, device, key: key) }
        let replayed = try await pay(till, open, device, key: key)
        guard case .replayed = replayed else {
            Issue.record("the refusal was not recorded: \(replayed)")
            return
        }
        let second = try await till.checkout(billId: open.id, device: device)
        // The payment is inserted, numbered, and then the transaction fails: rolled back whole.
        let failing = Till(store: FailingPaymentStore(base: database.store, failure: .afterInsert), taxRate: StorageFixtures.rate875, currency: .usd)
        await #expect(throws: FailingPaymentStore.InjectedFailure()) { try await pay(failing, second, device) }
        #expect(try database.store.rowCount(in: "payments") == 1)

        let paid = try #require(try await pay(till, second, device).performedValue)
        #expect(paid.payment.receiptNumber == 2)
        let third = try await checkedOut(database.till(), device)
        #expect(try #require(try await pay(till, third, device).performedValue).payment.receiptNumber == 3)
    }

    @Test("the table refuses a second payment with a receipt number already given")
    func uniqueNumbers() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let paid = try #require(try await pay(till, try await checkedOut(till, database.device), database.device).performedValue)
        let other = try await checkedOut(till, database.device)
        let twin = try other.check(PaymentRequest(method: .card, amountMinor: other.totalMinor))
            .payment(id: Identifier.make(prefix: "pay_"), receiptNumber: paid.payment.receiptNumber, createdAt: Date().roundedToMilliseconds, deviceId: database.device)
        await #expect(throws: (any Error).self) { try await database.store.write { try $0.insert(twin) } }
        #expect(try database.store.rowCount(in: "payments") == 1)
        // The same payment with the next number is taken: the refusal was the number's.
        let numbered = try other.check(PaymentRequest(method: .card, amountMinor: other.totalMinor))
            .payment(id: twin.id, receiptNumber: paid.payment.receiptNumber + 1, createdAt: twin.createdAt, deviceId: database.device)
        try await database.store.write { try $0.insert(numbered) }
        #expect(try database.store.rowCount(in: "payments") == 2)
    }

    @Test("pays racing through two store instances (two nodes) on several tills get distinct, consecutive numbers")
    func racingPays() async throws {
        let database = try await TestDatabase()
        let tills = [database.till(), Till(store: try database.reopen(), taxRate: StorageFixtures.rate875, currency: .usd)]
        var devices = [database.device]
        for index in 1..<4 { devices.append(try await database.enrollDevice(name: "Till \(index)")) }
        var bills: [(Bill, String)] = []
        for device in devices {
            for _ in 0..<4 { bills.append((try await checkedOut(tills[0], device), device)) }
        }
        let bound = bills
        let results = await concurrentResults(bound.count) { index -> Int64 in
            let (bill, device) = bound[index]
            return try await pay(tills[index % 2], bill, device).performedWithoutKey().payment.receiptNumber
        }
        let numbers = try results.map { try $0.get() }
        #expect(numbers.sorted() == Array(1...Int64(bound.count)), "\(numbers)")
        // After the race the next one follows on.
        let next = try await checkedOut(tills[1], devices[0])
        #expect(try #require(try await pay(tills[1], next, devices[0]).performedValue).payment.receiptNumber == Int64(bound.count) + 1)
    }

    @Test("migration 0019 numbers the payments a database already held by time, then id in byte order; new ones follow; an old binary's unnumbered payment is numbered on PostgreSQL, refused on SQLite")
    func backfill() async throws {
        // A database at 0018, with four paid bills paid in an order their ids do not follow.
        let rows = """
            INSERT INTO bills (id, status, currency, tax_rate_bps, subtotal_minor, tax_minor, total_minor, version, created_at,
                               updated_at, device_id, selected_at)
            SELECT 'bill_' || n, 'paid', 'USD', 0, 100, 0, 100, 1, '2025-01-01T09:00:00.000Z', '2025-01-01T09:00:00.000Z', NULL,
                   '2025-01-01T09:00:00.000Z'
            FROM (SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4) numbers;
            INSERT INTO payments (id, bill_id, method, amount_minor, tendered_minor, change_minor, created_at)
            VALUES ('pay_a', 'bill_1', 'card', 100, 100, 0, '2025-01-01T10:00:02.000Z'),
                   ('pay_c', 'bill_2', 'card', 100, 100, 0, '2025-01-01T10:00:01.000Z'),
                   ('pay_b', 'bill_3', 'card', 100, 100, 0, '2025-01-01T10:00:01.000Z'),
                   ('pay_Z', 'bill_4', 'card', 100, 100, 0, '2025-01-01T10:00:01.000Z');
            """
        let older = try await OlderDatabase(before: "0019_pos_receipts", rows: rows)
        defer { older.close() }
        let store = older.store
        // Time first (pay_a, the last paid, is last whatever its id); at the same time, byte order
        // of the id ("Z" before "b", as SQLite compares, not a locale's order).
        let numbers = try ["pay_Z", "pay_b", "pay_c", "pay_a"].map { try #require(try store.payment(id: $0)).receiptNumber }
        #expect(numbers == [1, 2, 3, 4])
        let last = try store.payment(id: "pay_a")
        #expect(last?.billId == "bill_1" && last?.receiptNumber == 4)

        let device = try await DeviceDirectory(store: store).enroll(name: "Front counter").device.id
        let till = Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd)
        let paid = try #require(try await pay(till, try await checkedOut(till, device), device).performedValue)
        #expect(paid.payment.receiptNumber == 5)
        // A payment inserted without a number, as a binary from before 0019 does. On PostgreSQL
        // (several nodes, replaced one by one after `migrate`) it takes the counter's next number;
        // on SQLite (one binary, which refuses a database with migrations it does not know) the
        // schema refuses it.
        let unnumbered = """
            INSERT INTO bills (id, status, currency, tax_rate_bps, subtotal_minor, tax_minor, total_minor, version, created_at,
                               updated_at, device_id, selected_at)
            VALUES ('bill_5', 'paid', 'USD', 0, 100, 0, 100, 1, '2025-01-01T09:00:00.000Z', '2025-01-01T09:00:00.000Z', NULL,
                    '2025-01-01T09:00:00.000Z');
            INSERT INTO payments (id, bill_id, method, amount_minor, tendered_minor, change_minor, created_at)
            VALUES ('pay_old_node', 'bill_5', 'card', 100, 100, 0, '2025-01-01T10:00:00.000Z');
            """
        if let url = older.url {
            _ = try TestPostgres.psql(url, unnumbered)
            #expect(try store.payment(id: "pay_old_node")?.receiptNumber == 6)
            let next = try #require(try await pay(till, try await checkedOut(till, device), device).performedValue)
            #expect(next.payment.receiptNumber == 7)
            #expect(try store.rowCount(in: "payments") == 7)
        } else {
            #expect(throws: (any Error).self) {
                try (store as? SQLiteStore)?.onWriter("a payment without a number") { try $0.execute(sql: unnumbered) }
            }
            #expect(try store.rowCount(in: "payments") == 5)
        }
    }
}
