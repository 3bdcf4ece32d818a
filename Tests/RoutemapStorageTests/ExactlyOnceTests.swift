import Foundation
import RoutemapDomain
import RoutemapTestSupport
@testable import RoutemapStorage
import Testing

@Suite("Exactly once under concurrency: 50 simultaneous pays of one bill on a real database")
struct ExactlyOnceTests {
    private static let requests = 50
    private let request = PaymentRequest(method: .cash, amountMinor: 517, tenderedMinor: 1_000)

    /// A database with one checked-out bill of its device holding one latte (total 517).
    private func checkedOutBill() async throws -> (TestDatabase, Bill) {
        let database = try await TestDatabase()
        let till = database.till()
        let bill = try await till.openBill(device: database.device)
        _ = try await till.addItem(billId: bill.id, device: database.device, menuItemId: "latte", quantity: 1)
        return (database, try await till.checkout(billId: bill.id, device: database.device))
    }

    /// One payment of `bill`, one next bill, nothing else.
    private func expectPaidOnce(_ database: TestDatabase, _ bill: Bill, keys: Int) async throws {
        #expect(try database.store.rowCount(in: "payments") == 1)
        #expect(try database.store.rowCount(in: "bills") == 2)
        #expect(try database.store.rowCount(in: "idempotency_keys") == keys)
        let till = database.till()
        #expect(try till.bill(id: bill.id, device: database.device).status == .paid)
        let next = try await till.currentBill(device: database.device)
        #expect(next.id != bill.id && next.status == .open)
    }

    @Test("with one key: one performs, every other replays its answer", arguments: 1...2)
    func oneKey(round: Int) async throws {
        let (database, bill) = try await checkedOutBill()
        let till = database.till()
        let device = database.device
        let key = Keys.payment("the-key", fingerprint: "POST /v1/bills/\(bill.id)/pay")
        let request = request
        let outcomes = try await concurrentResults(Self.requests) { _ in
            try await till.pay(billId: bill.id, device: device, request, idempotency: key)
        }.map { try $0.get() }

        let performed = outcomes.compactMap(\.performedValue)
        #expect(performed.count == 1)
        let recorded = try #require(outcomes.compactMap(\.recordedNow).first)
        #expect(outcomes.compactMap(\.replayed).count == Self.requests - 1)
        #expect(outcomes.compactMap(\.replayed).allSatisfy { $0 == recorded })
        #expect(try database.store.bill(id: bill.id)?.completingPayment == performed.first?.payment)
        try await expectPaidOnce(database, bill, keys: 1)
    }

    @Test("with 50 different keys: one pays, the 49 others get (and record) billNotCheckedOut(paid)", arguments: 1...2)
    func manyKeys(round: Int) async throws {
        let (database, bill) = try await checkedOutBill()
        let till = database.till()
        let device = database.device
        let request = request
        let results = await concurrentResults(Self.requests) { index in
            try await till.pay(billId: bill.id, device: device, request, idempotency: Keys.payment("key-\(index)", fingerprint: "pay"))
        }
        let performed = results.compactMap { try? $0.get().performedValue }
        #expect(performed.count == 1)
        let errors = results.compactMap { result -> POSError? in
            guard case .failure(let error) = result else { return nil }
            return error as? POSError
        }
        #expect(errors == Array(repeating: POSError.billNotCheckedOut(.paid), count: Self.requests - 1))
        try await expectPaidOnce(database, bill, keys: Self.requests)
    }

    @Test("with 50 different keys through two store instances on the same file: one payment")
    func twoStores() async throws {
        let (database, bill) = try await checkedOutBill()
        let second = try database.reopen()
        let tills = [database.till(), Till(store: second, taxRate: StorageFixtures.rate875, currency: .usd)]
        let device = database.device
        let request = request
        let results = await concurrentResults(Self.requests) { index in
            try await tills[index % 2].pay(billId: bill.id, device: device, request, idempotency: Keys.payment("key-\(index)", fingerprint: "pay"))
        }
        #expect(results.compactMap { try? $0.get().performedValue }.count == 1)
        let unexpected = results.compactMap { result -> String? in
            guard case .failure(let error) = result, error as? POSError != .billNotCheckedOut(.paid) else { return nil }
            return String(describing: error)
        }
        #expect(unexpected.isEmpty)
        try await expectPaidOnce(database, bill, keys: Self.requests)
    }

    @Test("without keys: one of 50 pays, the others are refused by the bill's state")
    func noKeys() async throws {
        let (database, bill) = try await checkedOutBill()
        let till = database.till()
        let device = database.device
        let request = request
        let results = await concurrentResults(Self.requests) { _ in try await till.pay(billId: bill.id, device: device, request) }
        #expect(results.filter { (try? $0.get()) != nil }.count == 1)
        // Each of the others is refused for the bill being paid, not for anything else.
        let unexpected = results.compactMap { result -> String? in
            guard case .failure(let error) = result, error as? POSError != .billNotCheckedOut(.paid) else { return nil }
            return String(describing: error)
        }
        #expect(unexpected.isEmpty)
        try await expectPaidOnce(database, bill, keys: 0)
    }

    @Test("50 simultaneous opens with one key create one bill")
    func openOnce() async throws {
        let database = try await TestDatabase()
        let till = database.till()
        let device = database.device
        let outcomes = try await concurrentResults(Self.requests) { _ in try await till.openBill(device: device, idempotency: Keys.bill("open")) }
            .map { try $0.get() }
        #expect(outcomes.compactMap(\.performedValue).count == 1)
        #expect(Set(outcomes.compactMap { $0.recordedNow ?? $0.replayed }).count == 1)
        #expect(try database.store.rowCount(in: "bills") == 1)
    }
}
