import Foundation
import Testing

@testable import RoutemapClient

/// The app's capabilities headers, sent by the session's client on every request, against the
/// real server: a client that declares less gets degraded steps, or a typed refusal.
@Suite("Client capabilities, end to end")
struct CapabilityTests {
    @Test("Without refresh, a walk to the top is performed as a replace, and the stack is the same")
    func refreshDegradesToReplace() async throws {
        let full = try await AppFixture()
        defer { full.stop() }
        try await full.start()
        try await full.checkOut(try await full.shownBill().id)
        try await full.session.navigate(to: "orderSummary")
        _ = await full.performer.take()
        try await full.session.navigate(to: "orderSummary")
        #expect(await full.performer.take() == ["refresh orderSummary"])

        let lessCapable = AppCapabilities(operations: StepOperation.knownCases.filter { $0 != .refresh && $0 != .popTo }, presentationStyles: [])
        #expect(lessCapable.headerFields["Navigation-Capabilities"] == "setRoot,selectTab,embed,present,dismiss,push,pop,replace")
        let app = try await AppFixture(capabilities: lessCapable)
        defer { app.stop() }
        try await app.start()
        try await app.checkOut(try await app.shownBill().id)
        try await app.session.navigate(to: "orderSummary")
        #expect(await app.performer.take() == ["present orderSummary style=modal nav"])
        let outcome = try await app.session.navigate(to: "orderSummary")
        #expect(outcome.resyncReason == nil)
        #expect(await app.performer.take() == ["replace orderSummary"])
        let bill = try await app.shownBill().id
        #expect(await app.stack() == ["tabBar", "splitContainer", "bill{billId=\(bill)}", "orderSummary{billId=\(bill)}"])
    }

    @Test("A client that cannot present is refused checkout with unsupported_client, and nothing changes")
    func cannotPresent() async throws {
        let app = try await AppFixture(capabilities: AppCapabilities(operations: [.setRoot, .selectTab, .embed, .replace, .dismiss]))
        defer { app.stop() }
        try await app.start()
        try await app.add("latte")
        _ = await app.performer.take()
        let checkout = try await app.session.prepare(action: "checkout", on: "bill")
        await #expect {
            try await app.session.perform(checkout)
        } throws: { ($0 as? Problem)?.code == .unsupportedClient }
        #expect(await app.performer.take().isEmpty)
        #expect(try await app.shownBill().status == .open)
        #expect(try await app.client.bill(id: try await app.shownBill().id).status == .open)
    }

    @Test("A client without the tab bar's native screen cannot launch (it has no other rendering); a malformed App-Version is invalid_field")
    func screensAndVersion() async throws {
        let server = try RoutemapServer()
        defer { server.stop() }
        let noTabBar = try await server.enrolledClient(capabilities: AppCapabilities(nativeScreens: ["splitView", "menu", "bill"]))
        await #expect {
            _ = try await noTabBar.launch()
        } throws: { ($0 as? Problem)?.code == .unsupportedClient }
        let badVersion = try await server.enrolledClient(capabilities: AppCapabilities(appVersion: "one.two"))
        await #expect {
            _ = try await badVersion.launch()
        } throws: { ($0 as? Problem).map { $0.code == .invalidField && $0.field == "App-Version" } ?? false }
    }
}
