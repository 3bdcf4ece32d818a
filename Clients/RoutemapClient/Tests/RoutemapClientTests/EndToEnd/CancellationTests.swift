import Foundation
import Testing

@testable import RoutemapClient

/// Cancelling the task of a navigation, against the real server: before its request is sent
/// (while it waits for the navigation before it), nothing is sent and it throws
/// `CancellationError`; after its answer came, its steps are performed to the end.
@Suite("Navigation session: cancellation, end to end")
struct CancellationTests {
    /// A started point-of-sale session whose performer takes `delay` per step, over a transport that notes every request.
    private func started(_ server: RoutemapServer) async throws -> (FaultyTransport, SlowPerformer, NavigationSession) {
        let transport = FaultyTransport()
        let client = try await server.enrolledClient(transport: transport)
        let performer = SlowPerformer()
        let session = NavigationSession(client: client, performer: performer)
        try await session.start()
        _ = await performer.take()
        return (transport, performer, session)
    }

    /// Waits until `performer` has noted `line`.
    private func waitUntil(_ performer: SlowPerformer, noted line: String) async throws {
        var noted: [String] = []
        for _ in 0..<500 where !noted.contains(line) {
            try await Task.sleep(for: .milliseconds(10))
            noted = await performer.lines
        }
        #expect(noted.contains(line), "the performer never got to \(line)")
    }

    @Test("A tap cancelled while the launch before it runs: CancellationError at once, and its request is never sent")
    func cancelledWhileWaiting() async throws {
        let server = try RoutemapServer()
        defer { server.stop() }
        let (transport, performer, session) = try await started(server)
        let bill = try #require(await session.screen(of: "bill")).screen.billPayload.id
        let menu = try #require(await session.screen(of: "menu")).screen
        let latte = try #require(menu.payload["items"]?.arrayValue?.first { $0["id"] == "latte" })
        let add = try await session.prepare(action: "addItem", on: "menu", item: latte)

        await performer.setDelay(.milliseconds(300))
        let launch = Task { try await session.launch() }  // four steps: 1.2 s
        try await waitUntil(performer, noted: "setRoot tabBar")
        let tap = Task { try await session.perform(add) }
        try await Task.sleep(for: .milliseconds(100))
        tap.cancel()
        await #expect(throws: CancellationError.self) { try await tap.value }
        // In order, not in time: the tap gave up while the launch was still performing its
        // steps (about a second was left of it), not once it ended.
        #expect(await performer.lines.filter { $0.hasSuffix("done") }.count < 4, "it stopped waiting at once, not when the launch ended")

        _ = try await launch.value
        #expect(await performer.take().filter { $0.hasSuffix("done") }.count == 4, "the launch went on")
        #expect(await transport.plan.lines("/items").isEmpty, "the tap's request was never sent")
        await performer.setDelay(.zero)
        #expect(try await session.perform(add).outcome?.resyncReason == nil, "the session still takes navigations")
        #expect(try await session.client.bill(id: bill).lines.map(\.quantity) == [1], "one latte: the later tap's")
    }

    @Test("A tap cancelled while its answer's steps are performed: the steps end, the result is returned, not StepFailed(CancellationError)")
    func cancelledAfterTheAnswer() async throws {
        let server = try RoutemapServer()
        defer { server.stop() }
        let (transport, performer, session) = try await started(server)
        let menu = try #require(await session.screen(of: "menu")).screen
        let latte = try #require(menu.payload["items"]?.arrayValue?.first { $0["id"] == "latte" })
        let add = try await session.prepare(action: "addItem", on: "menu", item: latte)

        await performer.setDelay(.milliseconds(300))
        let tap = Task { try await session.perform(add) }
        try await waitUntil(performer, noted: "replace bill")
        tap.cancel()
        let result = try await tap.value
        #expect(result.navigationFailure == nil)
        #expect(result.outcome?.performed.map(\.op) == [.replace])
        #expect(await performer.take() == ["replace bill", "replace bill done"])
        #expect(try await session.screen(of: "bill")?.screen.billPayload.lines.map(\.menuItemId) == ["latte"])
        #expect(await transport.plan.lines("/items").count == 1)
    }
}
