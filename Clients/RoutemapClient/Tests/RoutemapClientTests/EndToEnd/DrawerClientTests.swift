import Foundation
import Testing

@testable import RoutemapClient

/// The drawer screen through the library, against the real server: the tab selected by a walk,
/// its actions filled and sent by the session, whose answers' `replace drawer` it performs, and
/// the closed shift's cash-up on screen after the close.
@Suite("The drawer screen")
struct DrawerClientTests {
    @Test("the Drawer tab: open a shift, pay in, close with a count; each answer replaces the drawer, which ends on the cash-up, 25 short")
    func drawer() async throws {
        let app = try await AppFixture()
        defer { app.stop() }
        try await app.start()

        let walked = try await app.session.navigate(to: "drawer")
        #expect(walked.resyncReason == nil)
        #expect(await app.performer.take() == ["selectTab drawer"])
        #expect(await app.session.stack.map(\.route) == ["tabBar", "drawer"])
        var screen = try #require(await app.session.screen(of: "drawer")).screen
        #expect(screen.type == .drawer && screen.title == "Drawer")
        #expect(try screen.drawerPayload.shift == nil && screen.drawerPayload.lastClosedShift == nil && screen.drawerPayload.currency == "USD")
        #expect(screen.actions.map(\.name) == ["openShift"])

        let opened = try await app.session.perform(try await app.session.prepare(action: "openShift", on: "drawer", values: ["openingFloatMinor": 10_000]))
        #expect(opened.navigationFailure == nil && opened.outcome?.resyncReason == nil)
        #expect(await app.performer.take() == ["replace drawer"])
        screen = try #require(await app.session.screen(of: "drawer")).screen
        let shift = try #require(try screen.drawerPayload.shift)
        #expect(shift.status == .open && shift.expectedCashMinor == 10_000)
        #expect(screen.actions.map(\.name) == ["payIn", "payOut", "closeShift"])

        _ = try await app.session.perform(
            try await app.session.prepare(action: "payIn", on: "drawer", values: ["amountMinor": 500, "reason": "Change from the bank"]))
        #expect(await app.performer.take() == ["replace drawer"])
        #expect(try #require(await app.session.screen(of: "drawer")).screen.drawerPayload.shift?.expectedCashMinor == 10_500)

        let closed = try await app.session.perform(
            try await app.session.prepare(action: "closeShift", on: "drawer", values: ["countedCashMinor": 10_475]))
        #expect(closed.navigationFailure == nil)
        #expect(await app.performer.take() == ["replace drawer"])
        screen = try #require(await app.session.screen(of: "drawer")).screen
        let cashUp = try #require(try screen.drawerPayload.lastClosedShift)
        #expect(try screen.drawerPayload.shift == nil)
        #expect(cashUp.shiftId == shift.shiftId && cashUp.varianceMinor == -25 && cashUp.countedCashMinor == 10_475)
        #expect(screen.actions.map(\.name) == ["openShift"])
        #expect(await app.session.stack.map(\.route) == ["tabBar", "drawer"])

        // Through APIClient, the answers carry the same steps, which the session follows.
        let again = try await app.client.openShift(openingFloatMinor: 0)
        #expect(again.answer.status == .open && again.answer.navigation.map(\.route) == ["drawer"])
        _ = try await app.session.follow(answer: again.answer)
        #expect(try #require(await app.session.screen(of: "drawer")).screen.drawerPayload.shift?.shiftId == again.answer.shiftId)
        let movement = try await app.client.recordDrawerMovement(kind: .payIn, amountMinor: 100, reason: "Change")
        #expect(movement.answer.navigation.map(\.op) == [.replace])

        // Back to the Order tab: its screens again, the bill in focus.
        _ = try await app.session.navigate(to: "bill")
        #expect(await app.session.stack.map(\.route) == ["tabBar", "splitContainer", "bill"])
    }
}
