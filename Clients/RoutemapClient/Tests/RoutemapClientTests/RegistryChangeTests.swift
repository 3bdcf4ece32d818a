import Foundation
import Testing

@testable import RoutemapClient

/// A long-running app whose server is deployed with routes added or moved since `start()` read
/// the registry: the session reads it again instead of failing every navigation until the app
/// calls `start()` again. Against `ScriptedServer`, whose registry a test changes as a deploy
/// changes the real one's.
///
/// ```
/// root (root)
/// ├─ tabA (tab; slots primary, secondary)
/// │  ├─ left (embed primary)
/// │  └─ right (embed secondary)
/// ├─ tabB (tab)
/// └─ tabC (tab)          ← added by the deploy
///    └─ extra (push)     ← added by the deploy
/// ```
@Suite("Navigation session: the registry read again after a deploy")
struct RegistryChangeTests {
    private static let route = NavigationModelTests.route

    static let before: [Route] = [
        route("root", nil, .root, []),
        route("tabA", "root", .tab, ["primary", "secondary"]),
        route("left", "tabA", .embed(slot: "primary"), []),
        route("right", "tabA", .embed(slot: "secondary"), []),
        route("tabB", "root", .tab, []),
    ]
    static let after: [Route] = before + [route("tabC", "root", .tab, []), route("extra", "tabC", .push, [])]

    private static func step(_ op: StepOperation, _ route: RouteID, slot: String? = nil) -> Step {
        Step(op: op, route: route, slot: slot, screen: Screen(type: .unknown(route), title: route))
    }

    static let launch = NavigationAnswer(
        navigation: [step(.setRoot, "root"), step(.selectTab, "tabA"), step(.embed, "left", slot: "primary"), step(.embed, "right", slot: "secondary")],
        stack: [StackEntry(route: "root"), StackEntry(route: "tabA"), StackEntry(route: "right")])
    static let launchLines = ["setRoot root tabs=", "selectTab tabA", "embed left slot=primary", "embed right slot=secondary"]

    /// A started session over a server with the registry `before`.
    private func started() async throws -> (ScriptedServer, NavigationSession, RecordingPerformer) {
        let server = ScriptedServer(registry: Self.before, launch: Self.launch)
        let performer = RecordingPerformer()
        let session = NavigationSession(client: server.client(), performer: performer)
        let outcome = try await session.start()
        #expect(outcome.resyncReason == nil)
        #expect(await performer.take() == Self.launchLines)
        #expect(await server.count("GET /v1/routes") == 1)
        return (server, session, performer)
    }

    @Test("A walk to a route the deploy added (launch shows it too): the registry is read again and the walk performed as it came, no resync")
    func walkToAddedRoute() async throws {
        let (server, session, performer) = try await started()
        // Launch shows the new tab too: a resync through launch on the old registry fails as well.
        let launch = NavigationAnswer(
            navigation: [Self.step(.setRoot, "root"), Self.step(.selectTab, "tabC")], stack: [StackEntry(route: "root"), StackEntry(route: "tabC")])
        await server.deploy(registry: Self.after, launch: launch)
        await server.answerWalks([NavigationAnswer(navigation: [Self.step(.selectTab, "tabC")], stack: [StackEntry(route: "root"), StackEntry(route: "tabC")])])
        let outcome = try await session.navigate(to: "tabC")
        #expect(outcome.resyncReason == nil, "the walk fits the registry read again")
        #expect(await performer.take() == ["selectTab tabC"])
        #expect(await session.stack.map(\.route) == ["root", "tabC"])
        #expect(await server.count("GET /v1/routes") == 2)
        #expect(await server.count("GET /v1/launch") == 1, "no resync through launch")

        // Later walks place the new routes by the new registry, without reading it again.
        await server.answerWalks([
            NavigationAnswer(navigation: [Self.step(.push, "extra")], stack: [StackEntry(route: "root"), StackEntry(route: "tabC"), StackEntry(route: "extra")])
        ])
        #expect(try await session.navigate(to: "extra").resyncReason == nil)
        #expect(await performer.take() == ["push extra"])
        #expect(await server.count("GET /v1/routes") == 2)
    }

    @Test("A launch that shows a route the deploy added: the registry is read again, and the launch performed")
    func launchWithAddedRoute() async throws {
        let (server, session, performer) = try await started()
        let launch = NavigationAnswer(
            navigation: [Self.step(.setRoot, "root"), Self.step(.selectTab, "tabC")], stack: [StackEntry(route: "root"), StackEntry(route: "tabC")])
        await server.deploy(registry: Self.after, launch: launch)
        try await session.launch()
        #expect(await performer.take() == ["setRoot root tabs=", "selectTab tabC"])
        #expect(await session.stack.map(\.route) == ["root", "tabC"])
        #expect(await server.count("GET /v1/routes") == 2)
    }

    @Test("A user gesture on a route the deploy added: the registry is read again and the gesture taken")
    func gestureOnAddedRoute() async throws {
        let (server, session, performer) = try await started()
        await server.deploy(registry: Self.after)
        try await session.noteUserNavigation(Step(op: .selectTab, route: "tabC"))
        #expect(await session.stack.map(\.route) == ["root", "tabC"])
        #expect(await performer.take() == [], "a gesture is not performed")
        #expect(await server.count("GET /v1/routes") == 2)
    }

    @Test("Steps that do not fit even the registry read again throw StepDoesNotFit, public; nothing changes, and the next navigation works")
    func stillDoesNotFit() async throws {
        let (server, session, performer) = try await started()
        let ghost = NavigationAnswer(navigation: [Self.step(.setRoot, "root"), Self.step(.selectTab, "ghost")], stack: [StackEntry(route: "root"), StackEntry(route: "ghost")])
        await server.deploy(registry: Self.before, launch: ghost)
        await server.answerWalks([NavigationAnswer(navigation: [Self.step(.selectTab, "ghost")], stack: [StackEntry(route: "root"), StackEntry(route: "ghost")])])
        let stackBefore = await session.stack
        await #expect {
            try await session.navigate(to: "ghost")
        } throws: { error in
            guard let misfit = error as? NavigationSession.StepDoesNotFit else { return false }
            return misfit.step.op == .selectTab && misfit.step.route == "ghost" && misfit.reason.contains("ghost")
        }
        #expect(await performer.take() == [], "nothing performed")
        #expect(await session.stack == stackBefore)
        #expect(await server.count("GET /v1/routes") == 2, "read once more, before the resync through launch")

        // Not stuck: once the server's answers fit, navigation goes on.
        await server.deploy(registry: Self.before, launch: Self.launch)
        await server.answerWalks([NavigationAnswer(navigation: [Self.step(.selectTab, "tabB")], stack: [StackEntry(route: "root"), StackEntry(route: "tabB")])])
        #expect(try await session.navigate(to: "tabB").resyncReason == nil)
        #expect(await performer.take() == ["selectTab tabB"])

        // A gesture the registry cannot place is the same public error.
        await #expect(throws: NavigationSession.StepDoesNotFit.self) { try await session.noteUserNavigation(Step(op: .selectTab, route: "ghost")) }
        #expect(await session.stack.map(\.route) == ["root", "tabB"])
    }
}
