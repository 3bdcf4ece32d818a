import Foundation
import Testing

@testable import RoutemapClient

/// Cash drawer shifts through `APIClient`, against the real server: a manager's drawer cashed
/// up (it may refund, so its refunds come out of it), the problems a client branches on, and a
/// till that reads only its own shifts.
@Suite("API client: cash drawer shifts, end to end")
struct ShiftClientTests {
    /// A new bill of `device`'s with `quantity` lattes, checked out and paid by `request(total)`.
    private func paid(_ device: APIClient, quantity: Int, _ request: (Int64) -> PayRequest) async throws -> PaymentAnswer {
        let bill = try await device.createBill().answer.bill.id
        _ = try await device.addItem(billId: bill, menuItemId: "latte", quantity: quantity)
        let total = try await device.checkout(billId: bill).answer.bill.totalMinor
        return try await device.pay(billId: bill, request(total), intent: UserIntent()).answer
    }

    @Test("open, cash with a tip, card, a cash refund, a pay-in, a refused and an allowed pay-out, a close 40 over; a till reads only its own")
    func wholeShift() async throws {
        let server = try RoutemapServer()
        defer { server.stop() }
        let manager = APIClient(baseURL: server.baseURL, retry: .init(maxAttempts: 3, delay: .milliseconds(50)))
        _ = try await manager.enroll(name: "Office", enrollmentCode: RoutemapServer.managerEnrollmentCode, role: .manager)
        let till = try await server.enrolledClient()

        await #expect { _ = try await manager.currentShift() } throws: { ($0 as? Problem)?.code == .noOpenShift }
        let intent = UserIntent()
        let opened = try await manager.openShift(openingFloatMinor: 5000, intent: intent)
        #expect(opened.answer.status == .open && opened.answer.expectedCashMinor == 5000 && !opened.replayed)
        #expect(try await manager.openShift(openingFloatMinor: 5000, intent: intent).replayed)
        await #expect { _ = try await manager.openShift(openingFloatMinor: 0) } throws: { problem in
            (problem as? Problem)?.code == .shiftAlreadyOpen && (problem as? Problem)?.shiftId == opened.answer.shiftId
        }

        let cash = try await paid(manager, quantity: 1) { PayRequest(method: .cash, amountMinor: $0, tenderedMinor: 2000, tipMinor: 100) }
        let card = try await paid(manager, quantity: 2) { PayRequest(method: .card, amountMinor: $0, tipMinor: 50) }
        _ = try await manager.refund(billId: cash.bill.id, amountMinor: 60, reason: "Cold latte")
        let payIn = try await manager.recordDrawerMovement(kind: .payIn, amountMinor: 500, reason: "Change from the bank").answer
        #expect(payIn.movement.kind == .payIn && payIn.movement.shiftId == opened.answer.shiftId)
        let expected = 5000 + cash.payment.amountMinor + 100 - 60 + 500
        #expect(payIn.shift.expectedCashMinor == expected)
        await #expect {
            _ = try await manager.recordDrawerMovement(kind: .payOut, amountMinor: expected + 1, reason: "Safe")
        } throws: { problem in
            (problem as? Problem)?.code == .insufficientCash && (problem as? Problem)?.expectedCashMinor == expected
        }
        _ = try await manager.recordDrawerMovement(kind: .payOut, amountMinor: 1000, reason: "Milk delivery")

        let current = try await manager.currentShift()
        #expect(current.cardPayments == 1 && current.cardTakenMinor == card.payment.amountMinor + 50 && current.paymentsCount == 2)
        let closed = try await manager.closeShift(countedCashMinor: expected - 1000 + 40).answer
        #expect(closed.status == .closed && closed.expectedCashMinor == expected - 1000 && closed.varianceMinor == 40)
        #expect(closed.countedCashMinor == expected - 960 && closed.closedAt != nil && closed.deviceId == opened.answer.deviceId)
        #expect(try await manager.shift(id: closed.shiftId) == closed.shift)
        await #expect { _ = try await manager.closeShift(countedCashMinor: 0) } throws: { ($0 as? Problem)?.code == .noOpenShift }
        await #expect { _ = try await till.shift(id: closed.shiftId) } throws: { ($0 as? Problem)?.code == .notFound }
        let own = try await till.openShift(openingFloatMinor: 0).answer
        #expect(try await till.shift(id: own.shiftId) == own.shift && own.deviceId != closed.deviceId)

        let page = try await manager.shifts(limit: 1)
        #expect(page.shifts.map(\.shiftId) == [own.shiftId] && page.shifts.first?.status == .open)
        let rest = try await manager.shifts(limit: 1, cursor: page.nextCursor)
        #expect(rest.shifts.first?.varianceMinor == 40 && rest.shifts.first?.expectedCashMinor == closed.expectedCashMinor && rest.nextCursor == nil)
        #expect(try await manager.shifts(ofDevice: closed.deviceId).shifts.map(\.shiftId) == [closed.shiftId])
        await #expect { _ = try await till.shifts() } throws: { ($0 as? Problem)?.code == .managerOnly }
    }
}
