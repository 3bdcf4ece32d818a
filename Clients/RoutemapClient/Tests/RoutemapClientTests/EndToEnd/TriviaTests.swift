import Foundation
import Testing

@testable import RoutemapClient

/// The trivia app through the library against the real server: the same session and actions as
/// the point of sale, only the client's `app` differs (`/v1/apps/trivia/…`).
@Suite("Trivia, end to end")
struct TriviaTests {
    /// A session on the trivia app for a newly enrolled device, started.
    static func start(_ server: RoutemapServer) async throws -> (APIClient, RecordingPerformer, NavigationSession) {
        let client = APIClient(baseURL: server.baseURL, app: "trivia", retry: .init(maxAttempts: 3, delay: .milliseconds(50)))
        try await client.enroll(name: "trivia player", enrollmentCode: RoutemapServer.enrollmentCode)
        let performer = RecordingPerformer()
        let session = NavigationSession(client: client, performer: performer)
        let launch = try await session.start()
        #expect(launch.resyncReason == nil)
        #expect(await performer.take() == ["setRoot trivia tabs=", "embed landing slot=content", "embed options slot=options"])
        #expect(await session.stack.map(\.description) == ["trivia", "landing", "options{category=any,difficulty=mixed}"])
        return (client, performer, session)
    }

    @Test("One game: the difficulty popover, a game answered question by question, the results, play again")
    func oneGame() async throws {
        let server = try RoutemapServer()
        defer { server.stop() }
        let (client, performer, session) = try await Self.start(server)

        // The popover, anchored to the options' control; choosing replaces the options.
        let opened = try await session.perform(try await session.prepare(action: "chooseDifficulty", on: "options"))
        #expect(opened.outcome?.resyncReason == nil)
        #expect(await performer.take() == ["present difficultyMenu style=popover"])
        let menu = try #require(await session.screen(of: "difficultyMenu")).screen
        #expect(menu.payload["choices"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Mixed", "Easy", "Medium", "Hard"])
        let easy = try #require(menu.payload["choices"]?.arrayValue?.first { $0["id"] == "easy" })
        try await session.perform(try await session.prepare(action: "choose", on: "difficultyMenu", item: easy))
        #expect(await performer.take() == ["dismiss difficultyMenu", "replace options"])
        #expect(await session.stack.map(\.description) == ["trivia", "landing", "options{category=any,difficulty=easy}"])

        // Play: the server starts the game and pushes it.
        let played = try await session.perform(try await session.prepare(action: "play", on: "options"))
        #expect(await performer.take() == ["push game"])
        let started = try played.answer.decode(TriviaGameStarted.self)
        #expect(started.game.difficulty == .easy && started.game.questions.allSatisfy { $0.difficulty == "easy" && $0.correctAnswer == nil })

        // Every question answered with its first choice, as shown: the next one replaces it;
        // the last answer shows the game finished and pushes the results over it.
        var score = 0
        for number in 1...started.game.questionCount {
            let game = try #require(await session.screen(of: "game")).screen
            #expect(game.payload["number"] == .int(Int64(number)))
            #expect(game.payload["correctAnswer"] == nil)
            let choice = try #require(game.payload["choices"]?.arrayValue?.first)
            let result = try await session.perform(try await session.prepare(action: "answer", on: "game", item: choice))
            #expect(result.outcome?.resyncReason == nil)
            let answered = try result.answer.decode(TriviaAnswerResult.self)
            #expect(answered.result.answer == choice["text"]?.stringValue)
            if answered.result.correct { score += 1 }
            #expect(answered.game.score == score)
            #expect(await performer.take() == (number < started.game.questionCount ? ["replace game"] : ["replace game", "push results"]))
        }
        let results = try #require(await session.screen(of: "results")).screen
        #expect(results.payload["score"] == .int(Int64(score)))
        let stored = try await client.triviaGame(id: started.game.id)
        #expect(stored.status == "finished" && stored.score == score && stored.questions.allSatisfy { $0.correctAnswer != nil })

        // Play again: back to the landing, with the game's options.
        try await session.perform(try await session.prepare(action: "playAgain", on: "results"))
        #expect(await performer.take() == ["popTo trivia", "replace landing", "replace options"])
        #expect(await session.stack.map(\.description) == ["trivia", "landing", "options{category=any,difficulty=easy}"])
    }

    @Test("play and answer send the tap's Idempotency-Key: a retried tap replays, one game and one answer")
    func retriedTaps() async throws {
        let server = try RoutemapServer()
        defer { server.stop() }
        let (client, performer, session) = try await Self.start(server)
        let play = try await session.prepare(action: "play", on: "options")
        #expect(play.headers["Idempotency-Key"] == play.intent.idempotencyKey)
        let first = try await client.send(play)
        let retried = try await client.send(play)
        #expect(first.status == 201 && !first.replayed && retried.replayed)
        let game = try first.decode(TriviaGameStarted.self).game
        #expect(try retried.decode(TriviaGameStarted.self).game.id == game.id, "the retry gets the same game, not a second one")

        try await session.perform(play)
        #expect(await performer.take() == ["push game"])
        let shown = try #require(await session.screen(of: "game")).screen
        let choice = try #require(shown.payload["choices"]?.arrayValue?.first)
        let answer = try await session.prepare(action: "answer", on: "game", item: choice)
        #expect(answer.headers["Idempotency-Key"] == answer.intent.idempotencyKey)
        let answered = try await client.send(answer)
        let again = try await client.send(answer)
        #expect(answered.status == 200 && again.status == 200 && again.replayed, "not 409 question_already_answered")
        #expect(try await client.triviaGame(id: game.id).answeredCount == 1)
    }

    @Test("An impossible filter: the server answers the play with the no-data screen, whose action leads back")
    func noData() async throws {
        let server = try RoutemapServer()
        defer { server.stop() }
        let (client, performer, session) = try await Self.start(server)
        try await session.perform(try await session.prepare(action: "chooseCategory", on: "options"))
        #expect(await performer.take() == ["present categoryPicker style=sheet"])
        let picker = try #require(await session.screen(of: "categoryPicker")).screen
        let music = try #require(picker.payload["choices"]?.arrayValue?.first { $0["id"] == "music" })
        try await session.perform(try await session.prepare(action: "choose", on: "categoryPicker", item: music))
        #expect(await performer.take() == ["dismiss categoryPicker", "replace options"])
        try await session.perform(try await session.prepare(action: "chooseDifficulty", on: "options"))
        let menu = try #require(await session.screen(of: "difficultyMenu")).screen
        let hard = try #require(menu.payload["choices"]?.arrayValue?.first { $0["id"] == "hard" })
        try await session.perform(try await session.prepare(action: "choose", on: "difficultyMenu", item: hard))
        _ = await performer.take()
        #expect(await session.stack.map(\.description) == ["trivia", "landing", "options{category=music,difficulty=hard}"])

        let played = try await session.perform(try await session.prepare(action: "play", on: "options"))
        #expect(played.answer.status == 200)
        #expect(try played.answer.decode(TriviaNoData.self).noData.reason == "There are no hard questions in Music.")
        #expect(await performer.take() == ["push noData"])
        let screen = try #require(await session.screen(of: "noData")).screen
        #expect(screen.renderer == .declarative)
        try await session.perform(try await session.prepare(action: "changeOptions", on: "noData"))
        #expect(await performer.take() == ["pop noData", "replace landing", "replace options"])
        #expect(await session.stack.map(\.description) == ["trivia", "landing", "options{category=music,difficulty=hard}"])

        // A deep link to the options of another difficulty: the category shown stays. The
        // library's own start says the same as the play action did.
        try await session.open(url: "trivia://play/medium")
        #expect(await performer.take() == ["replace options"])
        #expect(await session.stack.map(\.description) == ["trivia", "landing", "options{category=music,difficulty=medium}"])
        guard case .noData = try await client.startTriviaGame(StartTriviaGameRequest(difficulty: .hard, category: "music")) else {
            Issue.record("a hard game of music started")
            return
        }
    }
}
