import Foundation
import RoutemapDomain
@testable import RoutemapStorage
import Testing

@Suite("Concurrent requests on a real file")
struct ConcurrencyTests {
    @Test("20 concurrent requests asking for the current bill of an empty database create exactly one", arguments: 1...3)
    func currentBillOnce(round: Int) async throws {
        let database = try await TestDatabase()
        let device = database.device
        let till = database.till()
        let ids = try await runConcurrently(20) { try await till.currentBill(device: device).id }
        #expect(Set(ids).count == 1)
        #expect(try database.store.rowCount(in: "bills") == 1)
    }

    @Test("20 concurrent requests of two devices asking for their current bills create exactly one each")
    func currentBillOncePerDevice() async throws {
        let database = try await TestDatabase()
        let devices = [database.device, try await database.enrollDevice()]
        let till = database.till()
        let bills = try await concurrentResults(20) { index in try await till.currentBill(device: devices[index % 2]) }.map { try $0.get() }
        #expect(Set(bills.map(\.id)).count == 2)
        #expect(Set(bills.map(\.deviceId)) == Set(devices))
        #expect(try database.store.rowCount(in: "bills") == 2)
        for device in devices {
            #expect(Set(bills.filter { $0.deviceId == device }.map(\.id)).count == 1)
        }
    }

    @Test("20 concurrent requests adding to one bill lose no update")
    func noLostUpdates() async throws {
        let database = try await TestDatabase()
        let device = database.device
        let till = database.till()
        let bill = try await till.openBill(device: device)
        _ = try await runConcurrently(20) { try await till.addItem(billId: bill.id, device: device, menuItemId: "latte", quantity: 1) }
        let final = try till.bill(id: bill.id, device: device)
        #expect(final.lines.count == 1)
        #expect(final.lines[0].quantity == 20)
        #expect(final.version == 21)
    }

    @Test("20 concurrent creations of one menu item id, then of one category id, through two store instances: one is created, every other is refused as existing")
    func menuCreatedOnce() async throws {
        let database = try await TestDatabase()
        let device = database.device
        // Two instances: on PostgreSQL two nodes, whose transactions both find the id free
        // before either commits (a store's own connections race too).
        let tills = [database.till(), Till(store: try database.reopen(), taxRate: StorageFixtures.rate875, currency: .usd)]
        for round in 1...3 {
            let item = MenuItemDraft(id: "special-\(round)", name: "Special \(round)", category: "coffee", priceMinor: 450)
            let items = await concurrentResults(20) { index in
                try await tills[index % 2].createMenuItem(item, device: device, idempotency: nil).performedWithoutKey()
            }
            #expect(items.compactMap { try? $0.get() }.map(\.id) == [item.id], "round \(round)")
            let otherItems = items.compactMap { result -> String? in
                guard case .failure(let error) = result, error as? POSError != .menuItemExists(item.id) else { return nil }
                return String(describing: error)
            }
            #expect(otherItems.isEmpty, "round \(round): \(otherItems)")

            let category = MenuCategory(id: "specials-\(round)", name: "Specials \(round)")
            let categories = await concurrentResults(20) { index in
                try await tills[index % 2].createMenuCategory(category, device: device, idempotency: nil).performedWithoutKey()
            }
            #expect(categories.compactMap { try? $0.get() } == [category], "round \(round)")
            let otherCategories = categories.compactMap { result -> String? in
                guard case .failure(let error) = result, error as? POSError != .menuCategoryExists(category.id) else { return nil }
                return String(describing: error)
            }
            #expect(otherCategories.isEmpty, "round \(round): \(otherCategories)")
        }
        #expect(try tills[0].menuCategories().filter { $0.id.hasPrefix("specials-") }.count == 3)
    }

    /// Runs `work` `count` times at once, and returns the results.
    private func runConcurrently<T: Sendable>(_ count: Int, _ work: @escaping @Sendable () async throws -> T) async throws -> [T] {
        try await concurrentResults(count) { _ in try await work() }.map { try $0.get() }
    }
}
