import Foundation
import RoutemapJSON
import RoutemapTestSupport
import Testing

/// The trivia app through the whole pipeline, on a real SQLite file: launch, the options'
/// popover and sheet, a game from its start to its results and back to the landing, the
/// no-data screen, deep links, and a game that survives a restart.
@Suite("Trivia games")
struct TriviaGameTests {
    static let launchStack = ["trivia", "landing", "options{category=any,difficulty=mixed}"]

    @Test("launch: the navigation-stack root, the landing and its options (any difficulty, any category)")
    func launch() async throws {
        let server = try await TriviaServer()
        let launch = await server.get("/v1/apps/trivia/launch")
        #expect(launch.status == 200, "\(launch.text)")
        #expect(ops(launch) == ["setRoot trivia", "embed landing", "embed options"])
        #expect(stack(launch) == Self.launchStack)
        #expect(screen(launch, 2)["payload"]?["difficultyName"] == "Mixed")
        #expect(screen(launch, 2)["payload"]?["categoryName"] == "Any category")
        #expect(screen(launch, 2)["actions"]?.array.map { $0["name"]!.string } == ["chooseDifficulty", "chooseCategory", "play"])
        #expect(screen(launch, 1)["payload"]?["questionCount"] == 64)
    }

    @Test("the difficulty popover, anchored to the options' control; choosing dismisses it and replaces the options")
    func difficultyPopover() async throws {
        let server = try await TriviaServer()
        let launch = await server.get("/v1/apps/trivia/launch")
        let menu = await server.navigate(["from": launch.json["stack"]!, "to": "difficultyMenu"])
        #expect(menu.status == 200, "\(menu.text)")
        #expect(ops(menu) == ["present difficultyMenu"])
        #expect(menu.json["navigation"]?.array.first?["presentation"] == ["style": "popover", "anchor": "chooseDifficulty", "inNavigationContainer": false])
        #expect(screen(menu, 0)["payload"]?["choices"]?.array.map { $0["name"]!.string } == ["Mixed", "Easy", "Medium", "Hard"])
        let chosen = await server.navigate([
            "from": menu.json["stack"]!, "to": "options", "input": ["difficulty": "hard", "category": "any"],
        ])
        #expect(ops(chosen) == ["dismiss difficultyMenu", "replace options"])
        #expect(stack(chosen) == ["trivia", "landing", "options{category=any,difficulty=hard}"])
        #expect(screen(chosen, 1)["payload"]?["difficultyName"] == "Hard")
    }

    @Test("the category picker, a sheet; choosing keeps the difficulty")
    func categorySheet() async throws {
        let server = try await TriviaServer()
        let from: JSON = ["trivia", "landing", ["route": "options", "inputs": ["difficulty": "easy", "category": "any"]]]
        let sheet = await server.navigate(["from": from, "to": "categoryPicker"])
        #expect(ops(sheet) == ["present categoryPicker"])
        #expect(sheet.json["navigation"]?.array.first?["presentation"]?["style"] == "sheet")
        let names = screen(sheet, 0)["payload"]?["choices"]?.array.map { $0["id"]!.string }
        #expect(names == ["any", "science", "geography", "history", "literature", "music"])
        let chosen = await server.navigate(["from": sheet.json["stack"]!, "to": "options", "input": ["difficulty": "easy", "category": "history"]])
        #expect(ops(chosen) == ["dismiss categoryPicker", "replace options"])
        #expect(stack(chosen) == ["trivia", "landing", "options{category=history,difficulty=easy}"])
    }

    @Test("a game: pushed, one question at a time (replace), checked on the server, results pushed, play again pops to the landing")
    func wholeGame() async throws {
        let server = try await TriviaServer()
        let bank = try server.bank()
        let started = try await server.start("easy", "science")
        let game = started["game"]!
        #expect(game["questionCount"] == 5)
        #expect(game["status"] == "playing")
        let questions = game["questions"]!.array
        #expect(Set(questions.map { $0["id"]!.string }).count == 5)
        for question in questions {
            let stored = try #require(bank[question["id"]!.string])
            #expect(stored.category == "science" && stored.difficulty.rawValue == "easy")
            #expect(Set(question["choices"]!.array.map(\.string)) == Set(stored.answers))
            #expect(question["correctAnswer"] == nil && question["correct"] == nil && question["answer"] == nil)
        }
        #expect(started["navigation"]!.array.map { $0["op"]!.string + " " + $0["route"]!.string } == ["push game"])
        let gameId = game["id"]!.string
        var shown = started["navigation"]!.array[0]["screen"]!
        #expect(shown["inputs"] == ["gameId": .string(gameId)])

        for number in 1...5 {
            let payload = shown["payload"]!
            #expect(payload["number"] == .int(Int64(number)))
            #expect(payload["correctAnswer"] == nil, "the question shows no correct answer before it is answered")
            let question = try #require(bank[payload["questionId"]!.string])
            #expect(payload["question"]?.stringValue == question.text)
            // Right on odd questions, wrong on even ones.
            let answer = number % 2 == 1 ? question.correctAnswer : question.wrongAnswers[number % 3]
            let answered = await server.send(
                "POST", "/v1/trivia/games/\(gameId)/answers", json: ["questionId": .string(question.id), "answer": .string(answer)])
            #expect(answered.status == 200, "\(answered.text)")
            #expect(answered.json["result"]?["correct"] == .bool(number % 2 == 1))
            #expect(answered.json["result"]?["correctAnswer"] == .string(question.correctAnswer))
            #expect(answered.json["game"]?["score"] == .int(Int64((number + 1) / 2)))
            if number < 5 {
                #expect(ops(answered) == ["replace game"])
                shown = screen(answered, 0)
            } else {
                // The game under the results shows it finished: back from the results offers no
                // last question to answer again.
                #expect(ops(answered) == ["replace game", "push results"])
                #expect(answered.json["game"]?["status"] == "finished")
                let finished = screen(answered, 0)["payload"]!
                #expect(finished["finished"] == true && finished["choices"] == nil && finished["questionId"] == nil)
                #expect(screen(answered, 0)["actions"]?.array.map { $0["name"]! } == ["showResults"])
                let results = screen(answered, 1)["payload"]!
                #expect(results["score"] == 3)
                #expect(results["answers"]?.array.map { $0["correct"]! } == [true, false, true, false, true])
                shown = screen(answered, 1)
            }
        }

        // "Play again": the results' action walks back to the landing, with the game's options.
        let playAgain = try #require(shown["actions"]?.array.first { $0["name"] == "playAgain" })
        #expect(playAgain["path"] == "/v1/apps/trivia/navigate")
        let again = await server.navigate([
            "from": [
                "trivia", ["route": "game", "inputs": ["gameId": .string(gameId)]], ["route": "results", "inputs": ["gameId": .string(gameId)]],
            ],
            "to": "options", "input": ["difficulty": "easy", "category": "science"],
        ])
        #expect(ops(again) == ["popTo trivia", "replace landing", "replace options"])
        #expect(stack(again) == ["trivia", "landing", "options{category=science,difficulty=easy}"])
    }

    @Test("answering twice, another game's question, out of order, or no choice: a problem, and nothing changes")
    func refusedAnswers() async throws {
        let server = try await TriviaServer()
        let bank = try server.bank()
        let game = try await server.start("medium")["game"]!
        let other = try await server.start("hard")["game"]!
        let gameId = game["id"]!.string
        let first = game["questions"]!.array[0]["id"]!.string
        let second = game["questions"]!.array[1]["id"]!.string
        let answers = "/v1/trivia/games/\(gameId)/answers"

        expectProblem(await server.send("POST", answers, json: ["questionId": .string(second), "answer": .string(bank[second]!.correctAnswer)]), 409, "question_not_current")
        expectProblem(await server.send("POST", answers, json: ["questionId": .string(first), "answer": "not a choice"]), 422, "answer_not_a_choice")
        let foreign = other["questions"]!.array.map { $0["id"]!.string }.first { id in !game["questions"]!.array.contains { $0["id"]!.string == id } }!
        expectProblem(await server.send("POST", answers, json: ["questionId": .string(foreign), "answer": .string(bank[foreign]!.correctAnswer)]), 422, "question_not_in_game")
        expectProblem(await server.send("POST", answers, json: ["questionId": .string(first)]), 400, "invalid_field")
        expectProblem(await server.send("POST", answers, json: ["questionId": .string(first), "answer": "x", "correct": true]), 400, "invalid_field")
        #expect(await server.get("/v1/trivia/games/\(gameId)").json == game, "no refused answer changed the game")

        let wrong = bank[first]!.wrongAnswers[0]
        #expect(await server.send("POST", answers, json: ["questionId": .string(first), "answer": .string(wrong)]).status == 200)
        let afterFirst = await server.get("/v1/trivia/games/\(gameId)").json
        // Answering again, even with the right answer now, is refused: the first answer stands.
        expectProblem(
            await server.send("POST", answers, json: ["questionId": .string(first), "answer": .string(bank[first]!.correctAnswer)]), 409,
            "question_already_answered")
        #expect(await server.get("/v1/trivia/games/\(gameId)").json == afterFirst)
        #expect(afterFirst["questions"]?.array[0]["correct"] == false)
        #expect(afterFirst["score"] == 0)
    }

    @Test("an answer in another Unicode spelling of a choice (decomposed) is that choice, and the game records it as the choice is shown")
    func canonicallyEquivalentAnswer() async throws {
        let server = try await TriviaServer()
        let bank = try server.bank()
        // Hard literature has exactly five questions, so every such game asks "Guernica", one of
        // whose choices is "Joan Miró" with a precomposed ó (U+00F3).
        let game = try await server.start("hard", "literature")["game"]!
        let gameId = game["id"]!.string
        let shown = "Joan Mir\u{F3}", decomposed = "Joan Miro\u{301}"
        #expect(Array(shown.utf8) != Array(decomposed.utf8))
        for question in game["questions"]!.array {
            let stored = try #require(bank[question["id"]!.string])
            let guernica = stored.id == "literature-hard-4"
            let answered = await server.send(
                "POST", "/v1/trivia/games/\(gameId)/answers",
                json: ["questionId": .string(stored.id), "answer": .string(guernica ? decomposed : stored.correctAnswer)])
            #expect(answered.status == 200, "\(answered.text)")
            if guernica {
                #expect(answered.json["result"]?["correct"] == false)
                // JSON's == compares strings as Swift does, by canonical equivalence: compare the bytes.
                #expect(answered.json["result"]?["answer"]?.stringValue.map { Array($0.utf8) } == Array(shown.utf8), "\(answered.text)")
            }
        }
        let read = await server.get("/v1/trivia/games/\(gameId)").json
        #expect(read["score"] == 4)
        let guernica = try #require(read["questions"]?.array.first { $0["id"] == "literature-hard-4" })
        let answer = Array(guernica["answer"]!.string.utf8)
        #expect(answer == Array(shown.utf8), "recorded as the choice is shown, not as sent")
        #expect(guernica["choices"]!.array.contains { Array($0.string.utf8) == answer }, "the answer is byte for byte one of the choices")
        #expect(guernica["correct"] == false)
    }

    @Test("another device's game is not found: not read, not answered, not opened by deep link; it stays as it was")
    func otherDevicesGame() async throws {
        let server = try await TriviaServer()
        let bank = try server.bank()
        let intruder = try await server.enroll("another till")
        let game = try await server.start("easy")["game"]!
        let gameId = game["id"]!.string
        let first = game["questions"]!.array[0]["id"]!.string
        expectProblem(await server.get("/v1/trivia/games/\(gameId)", token: intruder), 404, "not_found")
        expectProblem(
            await server.send(
                "POST", "/v1/trivia/games/\(gameId)/answers", json: ["questionId": .string(first), "answer": .string(bank[first]!.correctAnswer)],
                token: intruder), 404, "not_found")
        expectProblem(await server.get("/v1/apps/trivia/resolve?url=trivia://games/\(gameId)", token: intruder), 404, "not_found")
        #expect(await server.get("/v1/trivia/games/\(gameId)").json == game)
    }

    @Test("an unknown game id is cut to 64 characters in the 404's detail, as every other echoed value is")
    func longUnknownGameId() async throws {
        let server = try await TriviaServer()
        let long = "game_" + String(repeating: "x", count: 3000)
        let detail = "No game with id '\(long.prefix(64))'."
        for response in [
            await server.get("/v1/trivia/games/\(long)"),
            await server.send("POST", "/v1/trivia/games/\(long)/answers", json: ["questionId": "q", "answer": "a"]),
        ] {
            expectProblem(response, 404, "not_found")
            #expect(response.json["detail"] == .string(detail), "\(response.text.prefix(200))")
        }
    }

    @Test("two answers to one question at once: one is recorded, the other refused")
    func racingAnswers() async throws {
        let server = try await TriviaServer()
        let bank = try server.bank()
        let game = try await server.start("easy")["game"]!
        let gameId = game["id"]!.string
        let first = try #require(bank[game["questions"]!.array[0]["id"]!.string])
        async let right = server.send("POST", "/v1/trivia/games/\(gameId)/answers", json: ["questionId": .string(first.id), "answer": .string(first.correctAnswer)])
        async let wrong = server.send(
            "POST", "/v1/trivia/games/\(gameId)/answers", json: ["questionId": .string(first.id), "answer": .string(first.wrongAnswers[0])])
        let statuses = await [right.status, wrong.status].sorted()
        #expect(statuses == [200, 409])
        let stored = await server.get("/v1/trivia/games/\(gameId)").json
        #expect(stored["answeredCount"] == 1)
    }

    @Test("bad starts: a difficulty outside the four, an unknown category, unknown members; nothing is saved")
    func refusedStarts() async throws {
        let server = try await TriviaServer()
        expectProblem(await server.send("POST", "/v1/trivia/games", json: ["difficulty": "extreme"]), 400, "invalid_field")
        expectProblem(await server.send("POST", "/v1/trivia/games", json: ["category": "science"]), 400, "invalid_field")
        expectProblem(await server.send("POST", "/v1/trivia/games", json: ["difficulty": "easy", "category": "cooking"]), 422, "unknown_category")
        expectProblem(await server.send("POST", "/v1/trivia/games", json: ["difficulty": "easy", "questions": 50]), 400, "invalid_field")
        #expect(try server.gameCount() == 0)
    }

    @Test("a difficulty outside the four: 400 invalid_field in a start's body, 404 not_found as a navigation input (deep link, navigate)")
    func unknownDifficulty() async throws {
        let server = try await TriviaServer()
        expectProblem(await server.send("POST", "/v1/trivia/games", json: ["difficulty": "extreme"]), 400, "invalid_field")
        expectProblem(await server.get("/v1/apps/trivia/resolve?url=trivia://play/extreme"), 404, "not_found")
        expectProblem(await server.navigate(["from": "trivia", "to": "options", "input": ["difficulty": "extreme", "category": "any"]]), 404, "not_found")
        #expect(try server.gameCount() == 0)
    }

    @Test("an impossible filter: the server picks the no-data screen, saves nothing, and offers the way back")
    func noData() async throws {
        let server = try await TriviaServer()
        let none = await server.send("POST", "/v1/trivia/games", json: ["difficulty": "hard", "category": "music"])
        #expect(none.status == 200, "\(none.text)")
        #expect(none.json["game"] == nil)
        #expect(none.json["noData"]?["reason"] == "There are no hard questions in Music.")
        #expect(ops(none) == ["push noData"])
        #expect(screen(none, 0)["renderer"] == "declarative")
        #expect(screen(none, 0)["inputs"] == ["category": "music", "difficulty": "hard"])
        #expect(try server.gameCount() == 0)

        let back = await server.navigate([
            "from": ["trivia", ["route": "noData", "inputs": ["difficulty": "hard", "category": "music"]]], "to": "options",
            "input": ["difficulty": "hard", "category": "music"],
        ])
        #expect(ops(back) == ["pop noData", "replace landing", "replace options"])
        #expect(stack(back) == ["trivia", "landing", "options{category=music,difficulty=hard}"])
        // The screen's guard: only for a filter nothing matches.
        let matches = await server.navigate(["from": "trivia", "to": "noData", "input": ["difficulty": "easy", "category": "music"]])
        expectProblem(matches, 409, "questions_available")
    }

    @Test("deep links: trivia://play/{difficulty} opens the options, trivia://games/{gameId} the game, its results once finished")
    func deepLinks() async throws {
        let server = try await TriviaServer()
        let play = await server.get("/v1/apps/trivia/resolve?url=trivia://play/medium")
        #expect(play.status == 200, "\(play.text)")
        #expect(stack(play) == ["trivia", "landing", "options{category=any,difficulty=medium}"])
        expectProblem(await server.get("/v1/apps/trivia/resolve?url=trivia://play/extreme"), 404, "not_found")

        let game = try await server.start("easy", "geography")["game"]!
        let gameId = game["id"]!.string
        let opened = await server.get("/v1/apps/trivia/resolve?url=trivia://games/\(gameId)")
        #expect(opened.status == 200, "\(opened.text)")
        #expect(ops(opened) == ["push game"])
        #expect(stack(opened) == ["trivia", "game{gameId=\(gameId)}"])
        expectProblem(await server.get("/v1/apps/trivia/resolve?url=trivia://games/\(gameId)/results"), 409, "game_not_finished")
        expectProblem(await server.get("/v1/apps/trivia/resolve?url=trivia://games/game_nope"), 404, "not_found")
    }

    @Test("a game survives a restart: its questions, their order, its choices and its answers")
    func survivesRestart() async throws {
        let server = try await TriviaServer()
        let bank = try server.bank()
        let game = try await server.start("mixed")["game"]!
        let gameId = game["id"]!.string
        let first = try #require(bank[game["questions"]!.array[0]["id"]!.string])
        #expect(await server.send("POST", "/v1/trivia/games/\(gameId)/answers", json: ["questionId": .string(first.id), "answer": .string(first.correctAnswer)]).status == 200)
        let before = await server.get("/v1/trivia/games/\(gameId)").json

        try server.reopen()
        let after = await server.get("/v1/trivia/games/\(gameId)")
        #expect(after.status == 200)
        #expect(after.json == before)
        let second = try #require(bank[game["questions"]!.array[1]["id"]!.string])
        let answered = await server.send("POST", "/v1/trivia/games/\(gameId)/answers", json: ["questionId": .string(second.id), "answer": .string(second.correctAnswer)])
        #expect(answered.status == 200, "\(answered.text)")
        #expect(answered.json["game"]?["score"] == 2)
    }

    @Test("questions are drawn at random, in a random order, and each question's choices are shuffled")
    func drawsAndShuffles() async throws {
        let server = try await TriviaServer()
        let bank = try server.bank()
        var orders: Set<[String]> = [], drawn: Set<String> = [], correctAt = [Int](repeating: 0, count: 4)
        for _ in 0..<20 {
            // Easy science has exactly five questions: every game asks them all, in its own order.
            let science = try await server.start("easy", "science")["game"]!["questions"]!.array
            orders.insert(science.map { $0["id"]!.string })
            // Mixed draws 5 of the whole bank.
            for question in try await server.start("mixed")["game"]!["questions"]!.array {
                let stored = try #require(bank[question["id"]!.string])
                drawn.insert(stored.id)
                let choices = question["choices"]!.array.map(\.string)
                #expect(choices.sorted() == stored.answers.sorted())
                correctAt[try #require(choices.firstIndex(of: stored.correctAnswer))] += 1
            }
        }
        // Each could fail by chance, with odds below one in a billion.
        #expect(orders.count > 1, "the same five questions in the same order 20 times")
        #expect(drawn.count > 20, "100 questions drawn from \(bank.count) are \(drawn.count) different ones")
        #expect(!correctAt.contains(0), "the correct answer was shown at each place this often: \(correctAt)")
    }

    @Test("a verdict once given stays: a migration that corrects the bank's answer to a question changes no score")
    func verdictStays() async throws {
        let server = try await TriviaServer()
        let bank = try server.bank()
        let game = try await server.start("easy", "science")["game"]!
        let gameId = game["id"]!.string
        let first = try #require(bank[game["questions"]!.array[0]["id"]!.string])
        let answered = await server.send(
            "POST", "/v1/trivia/games/\(gameId)/answers", json: ["questionId": .string(first.id), "answer": .string(first.correctAnswer)])
        #expect(answered.json["result"]?["correct"] == true && answered.json["game"]?["score"] == 1, "\(answered.text)")

        // The bank's correct answer and its first wrong one swap places.
        try await server.store.writeTables(durability: .normal) { db in
            try db.execute(
                sql: "UPDATE trivia_questions SET correct_answer = wrong_answer_1, wrong_answer_1 = correct_answer WHERE id = ?", arguments: [first.id])
        }
        try server.reopen()
        let stored = await server.get("/v1/trivia/games/\(gameId)")
        #expect(stored.json["score"] == 1, "\(stored.text)")
        #expect(stored.json["questions"]?.array[0]["correct"] == true)
        #expect(stored.json["questions"]?.array[0]["answer"] == .string(first.correctAnswer))
    }
}
