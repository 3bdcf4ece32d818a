import Foundation
import Testing

@testable import RoutemapClient

/// `perform(_:)` once the server has performed the action, against the real server: the
/// action's answer is returned even when following its navigation fails, and the failure is
/// the result's `navigationFailure`.
@Suite("Navigation session: an action performed whose navigation fails, end to end")
struct ActionResultTests {
    /// A trivia session over `transport`, started.
    private func trivia(_ server: RoutemapServer, _ transport: FaultyTransport) async throws -> (APIClient, RecordingPerformer, NavigationSession) {
        let client = APIClient(baseURL: server.baseURL, app: "trivia", transport: transport, retry: .init(maxAttempts: 2, delay: .milliseconds(10)))
        try await client.enroll(name: "trivia player", enrollmentCode: RoutemapServer.enrollmentCode)
        let performer = RecordingPerformer()
        let session = NavigationSession(client: client, performer: performer)
        try await session.start()
        _ = await performer.take()
        return (client, performer, session)
    }

    @Test("Play's steps do not fit and the resync's launch is refused (429): the game started is returned, the failure beside it")
    func resyncRefused() async throws {
        let server = try RoutemapServer()
        defer { server.stop() }
        let transport = FaultyTransport()
        let (client, performer, session) = try await trivia(server, transport)
        // Play, prepared on the options; the difficulty popover then covers them, so the
        // answer's `push game` does not fit what the app shows, and the session resyncs.
        let play = try await session.prepare(action: "play", on: "options")
        try await session.perform(try await session.prepare(action: "chooseDifficulty", on: "options"))
        _ = await performer.take()
        let stackBefore = await session.stack
        let launches = await transport.plan.lines("/launch").count
        await transport.plan.fail("GET", "/launch", with: .refused(status: 429, code: "too_many_requests", retryAfter: 1))

        let result = try await session.perform(play)
        #expect(result.answer.status == 201)
        let game = try result.answer.decode(TriviaGameStarted.self).game
        #expect(result.outcome == nil)
        let problem = try #require(result.navigationFailure as? Problem)
        #expect(problem.code == .tooManyRequests)
        #expect(await performer.take() == [], "nothing performed")
        #expect(await session.stack == stackBefore)
        #expect(await transport.plan.lines("/launch").dropFirst(launches) == ["GET /v1/apps/trivia/launch key=- -> 429 too_many_requests (not sent)"])

        // The game is there; a launch later shows where the app is.
        #expect(try await client.triviaGame(id: game.id).id == game.id)
        await transport.plan.clear()
        try await session.launch()
        #expect(await performer.take().first == "setRoot trivia tabs=")
    }

    @Test("The performer fails the answer's own step: the game started is returned, with StepFailed beside it")
    func stepFailed() async throws {
        let server = try RoutemapServer()
        defer { server.stop() }
        let (client, performer, session) = try await trivia(server, FaultyTransport())
        await performer.fail("push game")
        let result = try await session.perform(try await session.prepare(action: "play", on: "options"))
        let game = try result.answer.decode(TriviaGameStarted.self).game
        let failed = try #require(result.navigationFailure as? NavigationSession.StepFailed)
        #expect(failed.index == 0 && failed.step.op == .push && failed.error is RecordingPerformer.Refused)
        #expect(result.outcome == nil)
        #expect(await session.stack.map(\.route) == ["trivia", "landing", "options"], "the push was not performed")
        #expect(try await client.triviaGame(id: game.id).answeredCount == 0)
    }
}
