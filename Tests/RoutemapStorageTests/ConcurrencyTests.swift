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

    @Test("20 threads of two devices asking for their current bills create exactly one each")
    func currentBillOncePerDevice() throws {
        let database = try TestDatabase()
        let devices = [database.device, try database.enrollDevice()]
        let till = database.till()
        let bills = try resultsOnThreads(20) { index in try till.currentBill(device: devices[index % 2]) }.map { try $0.get() }
        #expect(Set(bills.map(\.id)).count == 2)
        #expect(Set(bills.map(\.deviceId)) == Set(devices))
        #expect(try database.store.rowCount(in: "bills") == 2)
        for device in devices {
            #expect(Set(bills.filter { $0.deviceId == device }.map(\.id)).count == 1)
        }
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
        try resultsOnThreads(count) { _ in try work() }.map { try $0.get() }
    }
}
