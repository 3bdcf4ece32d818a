import Foundation
import RoutemapDomain
@testable import RoutemapStorage
import Testing

@Suite("A manager's transfer of a bill on a real database")
struct TransferStorageTests {
    @Test("a transfer stores the bill's new device and selection: read back by this store and a new one, listed and current as the rules say")
    func transferStored() async throws {
        let database = try await TestDatabase()
        let lost = database.device
        let target = try await database.enrollDevice()
        let manager = BillCaller(deviceId: try await DeviceDirectory(store: database.store).enroll(name: "Office", role: .manager).device.id, role: .manager)
        let till = database.till()
        let targetCurrent = try await till.currentBill(device: target)
        let older = try await till.openBill(device: lost)
        try await Task.sleep(for: .milliseconds(3))
        let tab = try await till.checkout(
            billId: try await till.addItem(billId: try await till.openBill(device: lost).id, device: lost, menuItemId: "latte", quantity: 2).id,
            device: lost)
        // Both stores' caches know the lost till's current bill: the one transferred.
        #expect(try database.store.currentBill(deviceId: lost)?.id == tab.id)
        #expect(try database.store.currentBill(deviceId: target)?.id == targetCurrent.id)

        let moved = try #require(try await till.transfer(billId: tab.id, to: target, caller: manager, idempotency: nil).performedValue)
        #expect(moved.deviceId == target && moved.selectedAt < targetCurrent.selectedAt)
        for store in [database.store, try database.reopen()] {
            let reader = Till(store: store, taxRate: StorageFixtures.rate875, currency: .usd)
            #expect(try store.bill(id: tab.id) == moved)
            #expect(try store.currentBill(deviceId: lost)?.id == older.id)
            #expect(try store.currentBill(deviceId: target)?.id == targetCurrent.id)
            #expect(try reader.bills(device: lost, statuses: [.open, .checkedOut], after: nil, limit: 10).bills.map(\.id) == [older.id])
            #expect(Set(try reader.bills(device: target, statuses: [.open, .checkedOut], after: nil, limit: 10).bills.map(\.id)) == [tab.id, targetCurrent.id])
            #expect(throws: POSError.billNotFound(tab.id)) { try reader.bill(id: tab.id, device: lost) }
        }
        // The target pays it; the lost till's change of it is refused.
        await #expect(throws: POSError.billNotFound(tab.id)) { try await till.cancelCheckout(billId: tab.id, device: lost) }
        let paid = try await till.pay(billId: tab.id, device: target, PaymentRequest(method: .card, amountMinor: tab.totalMinor))
        #expect(paid.bill.deviceId == target && paid.bill.status == .paid)
        #expect(try database.reopen().bill(id: tab.id) == paid.bill)
    }

    @Test("a transfer racing the old device's changes of the bill, through two store instances: one order wins, no change is lost")
    func transferRacesChanges() async throws {
        let database = try await TestDatabase()
        let lost = database.device
        let target = try await database.enrollDevice()
        let manager = BillCaller(deviceId: try await DeviceDirectory(store: database.store).enroll(name: "Office", role: .manager).device.id, role: .manager)
        let tills = [database.till(), Till(store: try database.reopen(), taxRate: StorageFixtures.rate875, currency: .usd)]
        for round in 1...3 {
            let bill = try await tills[0].openBill(device: lost)
            let results = await concurrentResults(20) { index -> Bool in
                if index == 10 {
                    _ = try await tills[index % 2].transfer(billId: bill.id, to: target, caller: manager, idempotency: nil).performedWithoutKey()
                    return false
                }
                do {
                    _ = try await tills[index % 2].addItem(billId: bill.id, device: lost, menuItemId: "latte", quantity: 1)
                    return true
                } catch POSError.billNotFound {
                    return false  // after the transfer: no longer the old device's
                }
            }
            let added = try results.map { try $0.get() }.filter { $0 }.count
            let final = try #require(try database.reopen().bill(id: bill.id))
            #expect(final.deviceId == target, "round \(round)")
            #expect(final.lines.first?.quantity ?? 0 == added, "round \(round)")
            // Each add that succeeded, and the transfer, counted once.
            #expect(final.version == 1 + added + 1, "round \(round)")
        }
    }
}
