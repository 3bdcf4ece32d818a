import Foundation
import RoutemapDomain
@testable import RoutemapStorage
import Synchronization
import Testing

@Suite("Concurrent requests on a real file")
struct ConcurrencyTests {
    @Test("20 threads asking for the current bill of an empty database create exactly one", arguments: 1...3)
    func currentBillOnce(round: Int) throws {
        let database = try TestDatabase()
        let device = database.device
        let till = database.till()
        let ids = try runOnThreads(20) { try till.currentBill(device: device).id }
        #expect(Set(ids).count == 1)
        #expect(try database.store.rowCount(in: "bills") == 1)
    }

    @Test("20 threads adding to one bill lose no update")
    func noLostUpdates() throws {
        let database = try TestDatabase()
        let device = database.device
        let till = database.till()
        let bill = try till.openBill(device: device)
        _ = try runOnThreads(20) { try till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1) }
        let final = try till.bill(id: bill.id, device: device)
        #expect(final.lines.count == 1)
        #expect(final.lines[0].quantity == 20)
        #expect(final.version == 21)
    }

    /// Runs `work` on `count` threads released together, and returns the results.
    private func runOnThreads<T: Sendable>(_ count: Int, _ work: @escaping @Sendable () throws -> T) throws -> [T] {
        let results = Mutex<[Result<T, any Error>]>([])
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<count {
            done.enter()
            Thread.detachNewThread {
                start.wait()
                let result = Result { try work() }
                results.withLock { $0.append(result) }
                done.leave()
            }
        }
        for _ in 0..<count { start.signal() }
        done.wait()
        return try results.withLock { $0 }.map { try $0.get() }
    }
}
