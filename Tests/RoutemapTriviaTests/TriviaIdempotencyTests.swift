import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// The trivia changes under `Idempotency-Key`, with the point of sale's rules, through the whole
/// pipeline on a real SQLite file: a retry with the key and body replays the recorded answer and
/// changes nothing; the key with another body is 422; keys are per device; the screens' actions
/// that change data send `{idempotencyKey}`.
@Suite("Trivia idempotency keys")
struct TriviaIdempotencyTests {
    @Test("a retried start with the same key gets the same game and navigation, and no second game is stored")
    func retriedStart() async throws {
        let server = try await TriviaServer()
        let body: JSON = ["difficulty": "easy", "category": "science"]
        let first = await server.send("POST", "/v1/trivia/games", json: body, headers: [("Idempotency-Key", "start-1")])
        #expect(first.status == 201, "\(first.text)")
        #expect(first.header("Idempotent-Replayed") == nil)
        #expect(try server.gameCount() == 1)
        // The same body with its members in another order is the same request.
        let retry = await server.send(
            "POST", "/v1/trivia/games", json: ["category": "science", "difficulty": "easy"], headers: [("Idempotency-Key", "start-1")])
        #expect(retry.status == 201, "\(retry.text)")
        #expect(retry.header("Idempotent-Replayed") == "true")
        #expect(retry.header("Location") == first.header("Location"))
        #expect(retry.json == first.json, "the recorded answer: the same game (questions in the same order) and the same steps")
        #expect(try server.gameCount() == 1, "a replay creates no second game")

        // Another key is another start.
        let other = await server.send("POST", "/v1/trivia/games", json: body, headers: [("Idempotency-Key", "start-2")])
        #expect(other.status == 201)
        #expect(other.json["game"]?["id"] != first.json["game"]?["id"])
        #expect(try server.gameCount() == 2)
    }

    @Test("the same key with another body is 422 idempotency_key_reused, and creates nothing")
    func reusedKeyOnStart() async throws {
        let server = try await TriviaServer()
        let first = await server.send("POST", "/v1/trivia/games", json: ["difficulty": "easy"], headers: [("Idempotency-Key", "k")])
        #expect(first.status == 201)
        let reused = await server.send("POST", "/v1/trivia/games", json: ["difficulty": "hard"], headers: [("Idempotency-Key", "k")])
        expectProblem(reused, 422, "idempotency_key_reused")
        #expect(try server.gameCount() == 1)
        // A key is per device: another device may use the same one for its own game.
        let other = try await server.enroll("second tablet")
        let theirs = await server.send("POST", "/v1/trivia/games", json: ["difficulty": "hard"], token: other, headers: [("Idempotency-Key", "k")])
        #expect(theirs.status == 201, "\(theirs.text)")
        #expect(theirs.header("Idempotent-Replayed") == nil)
        #expect(try server.gameCount() == 2)
    }

    @Test("category any is the same start to a key as no category (as null is): replayed either way round, not 422")
    func explicitAnyCategory() async throws {
        let server = try await TriviaServer()
        let absent = await server.send("POST", "/v1/trivia/games", json: ["difficulty": "easy"], headers: [("Idempotency-Key", "absent")])
        #expect(absent.status == 201, "\(absent.text)")
        let explicit = await server.send(
            "POST", "/v1/trivia/games", json: ["difficulty": "easy", "category": "any"], headers: [("Idempotency-Key", "explicit")])
        #expect(explicit.status == 201, "\(explicit.text)")
        let spellings: [JSON] = [["difficulty": "easy"], ["difficulty": "easy", "category": "any"], ["difficulty": "easy", "category": nil]]
        for (key, first) in [("absent", absent), ("explicit", explicit)] {
            for body in spellings {
                let retry = await server.send("POST", "/v1/trivia/games", json: body, headers: [("Idempotency-Key", key)])
                #expect(retry.status == 201, "\(key), \(body): \(retry.text)")
                #expect(retry.header("Idempotent-Replayed") == "true")
                #expect(retry.json == first.json)
            }
            // A category named is another request still.
            let science: JSON = ["difficulty": "easy", "category": "science"]
            expectProblem(await server.send("POST", "/v1/trivia/games", json: science, headers: [("Idempotency-Key", key)]), 422, "idempotency_key_reused")
        }
        #expect(try server.gameCount() == 2)
    }

    @Test("a start that saves nothing (no question matches, or an unknown category) still checks its key")
    func keyOfAStartThatSavesNothing() async throws {
        let server = try await TriviaServer()
        let first = await server.send("POST", "/v1/trivia/games", json: ["difficulty": "easy", "category": "science"], headers: [("Idempotency-Key", "k")])
        #expect(first.status == 201, "\(first.text)")
        // The key sent again with other requests is refused, whether or not they would save anything.
        let noQuestions: JSON = ["difficulty": "hard", "category": "music"]
        expectProblem(await server.send("POST", "/v1/trivia/games", json: noQuestions, headers: [("Idempotency-Key", "k")]), 422, "idempotency_key_reused")
        let unknown: JSON = ["difficulty": "easy", "category": "cooking"]
        expectProblem(await server.send("POST", "/v1/trivia/games", json: unknown, headers: [("Idempotency-Key", "k")]), 422, "idempotency_key_reused")
        #expect(try server.gameCount() == 1)

        // A start that finds no question records nothing: its retry finds none again, answered afresh.
        for _ in 0..<2 {
            let none = await server.send("POST", "/v1/trivia/games", json: noQuestions, headers: [("Idempotency-Key", "none")])
            #expect(none.status == 200, "\(none.text)")
            #expect(none.header("Idempotent-Replayed") == nil)
            #expect(ops(none) == ["push noData"])
        }
        // Nor is an unknown category recorded: the corrected request may use the key.
        expectProblem(await server.send("POST", "/v1/trivia/games", json: unknown, headers: [("Idempotency-Key", "fix")]), 422, "unknown_category")
        #expect(await server.send("POST", "/v1/trivia/games", json: ["difficulty": "easy"], headers: [("Idempotency-Key", "fix")]).status == 201)

        // The bank changes (a migration moved the easy science questions): the first start's
        // retry still gets the game it made, though the filter matches nothing now.
        try await server.store.writeTables(durability: .normal) { db in
            try db.execute(sql: "UPDATE trivia_questions SET difficulty = 'hard' WHERE category = 'science' AND difficulty = 'easy'")
        }
        try server.reopen()
        let retry = await server.send("POST", "/v1/trivia/games", json: ["difficulty": "easy", "category": "science"], headers: [("Idempotency-Key", "k")])
        #expect(retry.status == 201, "\(retry.text)")
        #expect(retry.header("Idempotent-Replayed") == "true")
        #expect(retry.json == first.json)
        let afresh = await server.send("POST", "/v1/trivia/games", json: ["difficulty": "easy", "category": "science"])
        #expect(ops(afresh) == ["push noData"], "the bank did change: \(afresh.text)")
        #expect(try server.gameCount() == 2)
    }

    @Test("a lost answer retried with its key replays the verdict, not 409 question_already_answered; another body is 422")
    func retriedAnswer() async throws {
        let server = try await TriviaServer()
        let bank = try server.bank()
        let game = try await server.start("medium")["game"]!
        let gameId = game["id"]!.string
        let questionId = game["questions"]!.array[0]["id"]!.string
        let question = try #require(bank[questionId])
        let answers = "/v1/trivia/games/\(gameId)/answers"
        let body: JSON = ["questionId": .string(questionId), "answer": .string(question.wrongAnswers[0])]

        let first = await server.send("POST", answers, json: body, headers: [("Idempotency-Key", "tap-1")])
        #expect(first.status == 200, "\(first.text)")
        #expect(ops(first) == ["replace game"])
        let retry = await server.send("POST", answers, json: body, headers: [("Idempotency-Key", "tap-1")])
        #expect(retry.status == 200, "\(retry.text)")
        #expect(retry.header("Idempotent-Replayed") == "true")
        #expect(retry.json == first.json)
        // Without the key, the second answer is refused as before.
        expectProblem(await server.send("POST", answers, json: body), 409, "question_already_answered")
        // The key with another answer (even the correct one) is refused, and the first stands.
        let other: JSON = ["questionId": .string(questionId), "answer": .string(question.correctAnswer)]
        expectProblem(await server.send("POST", answers, json: other, headers: [("Idempotency-Key", "tap-1")]), 422, "idempotency_key_reused")
        let stored = await server.get("/v1/trivia/games/\(gameId)")
        #expect(stored.json["answeredCount"] == 1, "\(stored.text)")
        #expect(stored.json["questions"]?.array[0]["answer"] == .string(question.wrongAnswers[0]))
    }

    @Test("as for bills, a state conflict (409) is recorded under its key and replayed; a validation failure is not")
    func recordedConflict() async throws {
        let server = try await TriviaServer()
        let bank = try server.bank()
        let game = try await server.start("hard")["game"]!
        let answers = "/v1/trivia/games/\(game["id"]!.string)/answers"
        let first = try #require(bank[game["questions"]!.array[0]["id"]!.string])
        let second = try #require(bank[game["questions"]!.array[1]["id"]!.string])
        let early: JSON = ["questionId": .string(second.id), "answer": .string(second.correctAnswer)]
        expectProblem(await server.send("POST", answers, json: early, headers: [("Idempotency-Key", "early")]), 409, "question_not_current")
        let now: JSON = ["questionId": .string(first.id), "answer": .string(first.correctAnswer)]
        #expect(await server.send("POST", answers, json: now, headers: [("Idempotency-Key", "now")]).status == 200)
        // The second question is current now, but the retry of that tap gets its recorded answer.
        let retried = await server.send("POST", answers, json: early, headers: [("Idempotency-Key", "early")])
        expectProblem(retried, 409, "question_not_current")
        #expect(retried.header("Idempotent-Replayed") == "true")
        #expect(await server.get("/v1/trivia/games/\(game["id"]!.string)").json["answeredCount"] == 1)
        // A validation failure is not recorded: the corrected request may reuse its key.
        let notAChoice: JSON = ["questionId": .string(second.id), "answer": "none of these"]
        expectProblem(await server.send("POST", answers, json: notAChoice, headers: [("Idempotency-Key", "fix")]), 422, "answer_not_a_choice")
        let fixed = await server.send("POST", answers, json: early, headers: [("Idempotency-Key", "fix")])
        #expect(fixed.status == 200, "\(fixed.text)")
        #expect(fixed.json["game"]?["answeredCount"] == 2)
    }

    @Test("the play and answer actions send {idempotencyKey}, as the point of sale's actions do")
    func actionsAreKeyed() async throws {
        let server = try await TriviaServer()
        let launch = await server.get("/v1/apps/trivia/launch")
        let play = try #require(screen(launch, 2)["actions"]?.array.first { $0["name"] == "play" })
        #expect(play["headers"] == ["Idempotency-Key": "{idempotencyKey}"])
        let started = try await server.start("easy")
        let answer = try #require(started["navigation"]?.array[0]["screen"]?["actions"]?.array.first { $0["name"] == "answer" })
        #expect(answer["headers"] == ["Idempotency-Key": "{idempotencyKey}"])
    }
}
