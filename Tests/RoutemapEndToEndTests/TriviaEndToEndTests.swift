import Foundation
import GRDB
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// The trivia app over HTTP against the real binary and a real SQLite file: per-app launch,
/// a game started and answered over the wire, and a restart in the middle of it.
@Suite("Trivia, end to end")
struct TriviaEndToEndTests {
    @Test("both apps on one server: /v1/launch stays the point of sale, /v1/apps/trivia/launch is the trivia landing")
    func bothApps() throws {
        let server = try Server()
        let pos = try server.get("/v1/launch")
        let posByName = try server.get("/v1/apps/pos/launch")
        #expect(pos.status == 200 && posByName.status == 200)
        #expect(pos.json == posByName.json)
        let trivia = try server.get("/v1/apps/trivia/launch")
        #expect(trivia.status == 200, "\(trivia.text)")
        #expect(trivia.json["stack"]?.array.map { $0["route"]!.string } == ["trivia", "landing", "options"])
        #expect(try server.get("/v1/apps/trivia/routes").json["root"]?["id"] == "trivia")
        #expect(try server.get("/v1/apps/chess/launch").status == 404)
    }

    @Test("a game survives a restart of the server: the answers given, the question order, the next answer")
    func gameAcrossRestart() throws {
        let server = try Server()
        let started = try server.send("POST", "/v1/trivia/games", json: ["difficulty": "medium", "category": "history"])
        #expect(started.status == 201, "\(started.text)")
        let game = started.json["game"]!
        let gameId = game["id"]!.string
        #expect(started.header("Location") == "/v1/trivia/games/\(gameId)")
        let first = game["questions"]!.array[0]
        let answered = try server.send(
            "POST", "/v1/trivia/games/\(gameId)/answers", json: ["questionId": first["id"]!, "answer": first["choices"]!.array[2]])
        #expect(answered.status == 200, "\(answered.text)")
        let before = try server.get("/v1/trivia/games/\(gameId)").json
        // The verdict is stored as given (the score is counted from it).
        let verdict = try #require(answered.json["result"]?["correct"])
        #expect(before["questions"]?.array[0]["correct"] == verdict && before["score"] == (verdict == true ? 1 : 0), "\(before)")

        let process = server.process
        let token = try process.token()
        #expect(process.stop() == 0)
        let restarted = try RoutemapProcess(databasePath: process.databasePath, token: token)
        defer { restarted.cleanUp() }
        let client = try restarted.client()
        #expect(try client.request("GET", "/v1/trivia/games/\(gameId)").json == before)
        let second = game["questions"]!.array[1]
        let body: JSON = ["questionId": second["id"]!, "answer": second["choices"]!.array[0]]
        let next = try client.request("POST", "/v1/trivia/games/\(gameId)/answers", headers: [("Content-Type", "application/json")], body: body.encoded())
        #expect(next.status == 200, "\(next.text)")
        #expect(next.json["game"]?["answeredCount"] == 2)
        // The first answer stands after the restart too.
        let again = try client.request(
            "POST", "/v1/trivia/games/\(gameId)/answers", headers: [("Content-Type", "application/json")],
            body: (["questionId": first["id"]!, "answer": first["choices"]!.array[0]] as JSON).encoded())
        #expect(again.status == 409)
        #expect(again.json["code"] == "question_already_answered")
    }

    @Test("20 answers to one question at once, each with its own choice: one is recorded, every other is 409 question_already_answered")
    func racingAnswers() throws {
        let server = try Server()
        let game = try server.send("POST", "/v1/trivia/games", json: ["difficulty": "easy"]).json["game"]!
        let gameId = game["id"]!.string
        let first = game["questions"]!.array[0]
        let choices = first["choices"]!.array
        let token = try server.process.token()
        let port = server.process.port
        let results = Collected<TestResponse?>()
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            let body: JSON = ["questionId": first["id"]!, "answer": choices[index % choices.count]]
            results.append(
                try? TestHTTPClient(port: port).request(
                    "POST", "/v1/trivia/games/\(gameId)/answers",
                    headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")], body: body.encoded()))
        }
        let responses = results.all.compactMap { $0 }
        #expect(responses.count == 20)
        let recorded = responses.filter { $0.status == 200 }
        #expect(recorded.count == 1, "\(responses.map(\.status))")
        for refused in responses where refused.status != 200 {
            #expect(refused.status == 409 && refused.json["code"] == "question_already_answered", "\(refused.text)")
        }
        let stored = try server.get("/v1/trivia/games/\(gameId)").json
        #expect(stored["answeredCount"] == 1)
        #expect(stored["questions"]?.array[0]["answer"] == recorded.first?.json["result"]?["answer"])
    }
}

/// The trivia changes under `Idempotency-Key` against the real binary: answers lost on the way
/// back are retried with their keys, across a restart, and the database holds each effect once.
@Suite("Trivia idempotency keys, end to end")
struct TriviaIdempotencyEndToEndTests {
    @Test("a lost start and a lost answer, retried with their keys after a restart, replay; another body is 422; nothing twice in the file")
    func lostAnswersRetried() throws {
        let server = try Server()
        let startBody: JSON = ["difficulty": "easy", "category": "geography"]
        // The client never reads these two answers: it retries them, with their keys.
        let lostStart = try server.send("POST", "/v1/trivia/games", json: startBody, headers: [("Idempotency-Key", "play-tap-1")])
        #expect(lostStart.status == 201, "\(lostStart.text)")
        let game = lostStart.json["game"]!
        let gameId = game["id"]!.string
        let first = game["questions"]!.array[0]
        let answerBody: JSON = ["questionId": first["id"]!, "answer": first["choices"]!.array[1]]
        let answers = "/v1/trivia/games/\(gameId)/answers"
        let lostAnswer = try server.send("POST", answers, json: answerBody, headers: [("Idempotency-Key", "answer-tap-1")])
        #expect(lostAnswer.status == 200, "\(lostAnswer.text)")

        // The retries reach a restarted server: the answers come from the file.
        let process = server.process
        let token = try process.token()
        #expect(process.stop() == 0)
        let restarted = try RoutemapProcess(databasePath: process.databasePath, token: token)
        defer { restarted.cleanUp() }
        let client = try restarted.client()
        func send(_ path: String, _ body: JSON, key: String) throws -> TestResponse {
            try client.request("POST", path, headers: [("Content-Type", "application/json"), ("Idempotency-Key", key)], body: body.encoded())
        }
        let start = try send("/v1/trivia/games", startBody, key: "play-tap-1")
        #expect(start.status == 201, "\(start.text)")
        #expect(start.header("Idempotent-Replayed") == "true")
        #expect(start.json == lostStart.json, "the same game, the same navigation")
        let answer = try send(answers, answerBody, key: "answer-tap-1")
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.header("Idempotent-Replayed") == "true")
        #expect(answer.json == lostAnswer.json, "the recorded verdict, not 409 question_already_answered")

        // The same keys with other bodies: 422, and nothing changes.
        let otherStart = try send("/v1/trivia/games", ["difficulty": "hard"], key: "play-tap-1")
        #expect(otherStart.status == 422 && otherStart.json["code"] == "idempotency_key_reused", "\(otherStart.text)")
        // Also when the other start would save nothing: no question matches, or no such category.
        for saving in [["difficulty": "hard", "category": "music"], ["difficulty": "easy", "category": "cooking"]] as [JSON] {
            let nothing = try send("/v1/trivia/games", saving, key: "play-tap-1")
            #expect(nothing.status == 422 && nothing.json["code"] == "idempotency_key_reused", "\(nothing.text)")
        }
        let otherAnswer = try send(answers, ["questionId": first["id"]!, "answer": first["choices"]!.array[2]], key: "answer-tap-1")
        #expect(otherAnswer.status == 422 && otherAnswer.json["code"] == "idempotency_key_reused", "\(otherAnswer.text)")

        let queries = [
            "SELECT count(*) FROM trivia_games", "SELECT count(*) FROM trivia_game_questions WHERE answer IS NOT NULL",
            "SELECT answer FROM trivia_game_questions WHERE game_id = '\(gameId)' AND position = 0",
            "SELECT count(*) FROM idempotency_keys WHERE key IN ('play-tap-1', 'answer-tap-1')",
        ]
        let (games, answered, stored, keys): (Int?, Int?, String?, Int?)
        if restarted.onPostgres {
            let values = try queries.map { try TestPostgres.psql(restarted.databasePath, $0) }
            (games, answered, stored, keys) = (Int(values[0]), Int(values[1]), values[2], Int(values[3]))
        } else {
            let database = try DatabaseQueue(path: restarted.databasePath)
            (games, answered, stored, keys) = try database.read { db throws -> (Int?, Int?, String?, Int?) in
                (
                    try Int.fetchOne(db, sql: queries[0]), try Int.fetchOne(db, sql: queries[1]), try String.fetchOne(db, sql: queries[2]),
                    try Int.fetchOne(db, sql: queries[3])
                )
            }
        }
        #expect(games == 1, "one game, not two")
        #expect(answered == 1)
        #expect(stored == first["choices"]!.array[1].string, "the first answer stands")
        #expect(keys == 2)
    }
}

/// The README's trivia walkthrough, run as written (curl and bash) against the real binary: it
/// must play one game to the end, be refused an answer given twice, and meet the no-data screen.
@Suite("README: the trivia walkthrough")
struct TriviaWalkthroughTests {
    @Test("the walkthrough plays a game to the end, is refused a second answer, and meets the no-data screen")
    func walkthroughPlaysAGame() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            Issue.record("curl is missing (./scripts/test installs it)")
            return
        }
        let server = try Server()
        let script = try Readme.shellBlock(inSection: "## A second app: trivia")
            .replacingOccurrences(of: "localhost:8080", with: "localhost:\(server.process.port)")
        #expect(script.contains("/v1/trivia/games"), "the walkthrough was not found")
        let (status, output) = try Readme.run(
            "AUTH=\"Authorization: Bearer $ROUTEMAP_TOKEN\"\n" + script, environment: ["ROUTEMAP_TOKEN": try server.process.token()])
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n")
        #expect(lines.count { $0.hasPrefix("{\"result\":") } == 5, "\(output)")
        #expect(lines.contains { $0.hasPrefix("{\"id\":\"game_") && $0.contains("\"status\":\"finished\"") && $0.contains("\"answeredCount\":5") })
        #expect(lines.contains { $0.contains("\"code\":\"question_already_answered\"") })
        #expect(lines.contains { $0.hasPrefix("{\"noData\":") && $0.contains("There are no hard questions in Music.") })
        #expect(lines.contains { $0.contains("{\"op\":\"popTo\",\"route\":\"trivia\"") })
        #expect(lines.contains { $0.contains("{\"op\":\"push\",\"route\":\"results\"") })
    }
}
