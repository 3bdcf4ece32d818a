import Foundation
import Testing

@testable import RoutemapClient

/// Several open bills through `APIClient` against the real server: list, resume, void, a payment
/// read back, and a line add retried as the same intent.
@Suite("Open orders through the client, end to end")
struct OpenOrdersTests {
    @Test("Two tables: list (paged), resume, add, change, remove and cancel checkout (each replayed with the same intent), void, pay and read the payment back")
    func twoTables() async throws {
        let app = try await AppFixture()
        defer { app.stop() }
        try await app.start()
        let client = app.client
        let first = try await app.shownBill().id
        let second = try await client.createBill().answer.bill.id

        let list = try await client.bills()
        #expect(list.bills.map(\.id) == [second, first])
        #expect(list.bills.map(\.current) == [true, false])
        #expect(list.nextCursor == nil)
        let page = try await client.bills(statuses: [.open], limit: 1)
        #expect(page.bills.map(\.id) == [second])
        #expect(try await client.bills(limit: 1, cursor: page.nextCursor).bills.map(\.id) == [first])

        let intent = UserIntent()
        let resumed = try await client.resume(billId: first, intent: intent)
        #expect(resumed.answer.bill.id == first && !resumed.replayed)
        #expect(try await client.resume(billId: first, intent: intent).replayed)

        let voided = try await client.void(billId: second, reason: "opened by mistake")
        #expect(voided.answer.bill.status == .voided)
        #expect(voided.answer.bill.void?.reason == "opened by mistake")
        #expect(voided.answer.nextBill.id == first)
        await #expect(throws: Problem.self) { try await client.void(billId: second, reason: "again") }

        let add = UserIntent()
        #expect(try await !client.addItem(billId: first, menuItemId: "latte", intent: add).replayed)
        #expect(try await client.addItem(billId: first, menuItemId: "latte", intent: add).replayed)
        #expect(try await client.bill(id: first).lines.map(\.quantity) == [1], "the retried add applied once")

        // Every keyed bill change says whether its answer was a replay.
        let line = try #require(try await client.bill(id: first).lines.first).lineId
        let change = UserIntent()
        #expect(try await !client.updateItem(billId: first, lineId: line, quantity: 2, intent: change).replayed)
        #expect(try await client.updateItem(billId: first, lineId: line, quantity: 2, intent: change).replayed)
        let espresso = try await client.addItem(billId: first, menuItemId: "espresso").answer.bill.lines.first { $0.menuItemId == "espresso" }
        let removal = UserIntent()
        let removed = try await client.removeItem(billId: first, lineId: try #require(espresso).lineId, intent: removal)
        #expect(!removed.replayed && removed.answer.bill.lines.map(\.menuItemId) == ["latte"])
        #expect(try await client.removeItem(billId: first, lineId: try #require(espresso).lineId, intent: removal).replayed)
        _ = try await client.checkout(billId: first)
        let cancel = UserIntent()
        #expect(try await !client.cancelCheckout(billId: first, intent: cancel).replayed)
        #expect(try await client.cancelCheckout(billId: first, intent: cancel).replayed)

        let bill = try await client.checkout(billId: first).answer.bill
        let paid = try await client.pay(billId: first, PayRequest(method: .card, amountMinor: bill.totalMinor), intent: UserIntent()).answer
        #expect(try await client.payment(id: paid.payment.id) == paid.payment)
        #expect(try await client.bill(id: first).payment == paid.payment)
    }
}
