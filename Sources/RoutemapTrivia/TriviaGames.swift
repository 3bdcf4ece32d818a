import Foundation
import RoutemapDomain

/// The trivia app's use cases: start a game, answer its questions. The rules live here; the
/// store only keeps what they decide, each change in one transaction.
package struct TriviaGames: Sendable {
    /// Questions in a game, at most (fewer when fewer match).
    package static let questionsPerGame = 5

    package let store: any TriviaStore
    package let bank: QuestionBank

    package init(store: any TriviaStore, bank: QuestionBank) {
        self.store = store
        self.bank = bank
    }

    /// What a start did: a game, or nothing, because no question matches the filter.
    package enum Started: Sendable, Hashable {
        case game(Game)
        case noQuestions(difficulty: Difficulty, category: TriviaCategory?)
    }

    /// Starts a game for `deviceId`: up to ``questionsPerGame`` questions drawn at random from
    /// those of `difficulty` in `category` (`nil`: any), each with its choices shuffled. When no
    /// question matches, nothing is saved and the answer says so (the no-data screen). Under an
    /// idempotency key of `deviceId` (see ``IdempotencyKey``), a key recorded already replays its
    /// answer and no game is saved. A start that saves nothing (no question matches, or the
    /// category is unknown) records nothing either, but its key is checked all the same: a key
    /// recorded for another request is refused, and one recorded for this request replays its
    /// game (the bank may have changed since).
    package func start(
        device deviceId: String, difficulty: Difficulty, category: String?, now: Date = Date(), idempotency: IdempotencyKey<Started>?
    ) async throws -> IdempotentOutcome<Started> {
        let found = category.flatMap { bank.category(id: $0) }
        let unknown = category != nil && found == nil
        let matching = unknown ? [] : bank.questions(difficulty, category: category)
        guard !matching.isEmpty else {
            // Nothing to save, so no transaction to check the key in: checked here.
            if let recorded = try await earlierAnswer(idempotency, device: deviceId, now: now) { return .replayed(recorded) }
            if unknown, let category { throw TriviaError.unknownCategory(category) }
            return .performed(.noQuestions(difficulty: difficulty, category: found), recorded: nil)
        }
        let asked = matching.shuffled().prefix(Self.questionsPerGame).map { question in
            Game.Asked(question: question, choiceOrder: Array(question.answers.indices).shuffled())
        }
        let game = Game(
            id: Identifier.make(prefix: "game_"), deviceId: deviceId, difficulty: difficulty, category: category, createdAt: now.roundedToMilliseconds,
            questions: Array(asked))
        let gameKey = idempotency.map { key in
            IdempotencyKey<Game>(key: key.key, fingerprint: key.fingerprint) { try key.record($0.map(Started.game)) }
        }
        switch try await store.insert(game, idempotency: gameKey) {
        case .performed(let game, let recorded): return .performed(.game(game), recorded: recorded)
        case .replayed(let recorded): return .replayed(recorded)
        }
    }

    /// The answer recorded under `idempotency` for `deviceId`, if any; throws
    /// ``IdempotencyKeyReused`` when it was recorded for another request.
    private func earlierAnswer(_ idempotency: IdempotencyKey<Started>?, device deviceId: String, now: Date) async throws -> RecordedAnswer? {
        guard let idempotency else { return nil }
        let store = store
        let recorded = try await store.reading { try store.recordedAnswer(device: deviceId, key: idempotency.key) }
        return try idempotency.replayable(recorded, now: now)
    }

    /// What answering a question did: the game after it and the question as answered.
    package struct Answered: Sendable, Hashable {
        package let game: Game
        /// The position of the question answered.
        package let position: Int

        package var asked: Game.Asked { game.questions[position] }
    }

    /// Records `answer` to question `questionId` of game `gameId`, in one transaction. The
    /// questions are answered in order, each once, with one of its four choices (in any
    /// canonically equivalent Unicode spelling; the choice is recorded as shown); the game of
    /// another device is not found. Under an idempotency key of `deviceId`, a key recorded
    /// already replays its answer (a retried answer is not refused as answered twice). A refusal changes nothing; a state conflict (`409`) is recorded under the key,
    /// a validation failure is not.
    package func answer(
        gameId: String, device deviceId: String, questionId: String, answer: String, now: Date = Date(),
        idempotency: IdempotencyKey<Answered>?
    ) async throws -> IdempotentOutcome<Answered> {
        try await store.update(gameId: gameId, device: deviceId, idempotency: idempotency) { stored in
            guard var game = stored, game.deviceId == deviceId else { throw TriviaError.gameNotFound(gameId) }
            guard let position = game.questions.firstIndex(where: { $0.question.id == questionId }) else {
                throw TriviaError.questionNotInGame(questionId: questionId, gameId: gameId)
            }
            guard game.questions[position].answer == nil else { throw TriviaError.questionAlreadyAnswered(questionId: questionId) }
            // Unanswered, so the game is not finished: there is a current question.
            if let current = game.currentPosition, position != current {
                throw TriviaError.questionNotCurrent(questionId: questionId, currentId: game.questions[current].question.id)
            }
            // String's == is canonical equivalence: another Unicode spelling of a choice (a decomposed
            // "ó") is that choice, and the game records the choice as shown, not the client's bytes.
            guard let choice = game.questions[position].choices.first(where: { $0 == answer }) else {
                throw TriviaError.answerNotAChoice(questionId: questionId)
            }
            game.questions[position].record(answer: choice, at: now.roundedToMilliseconds)
            if game.isFinished { game.finishedAt = now.roundedToMilliseconds }
            return (game, Answered(game: game, position: position))
        }
    }

    /// The game `id` of `deviceId`, as committed; another device's is not found.
    package func game(id: String, device deviceId: String) throws -> Game {
        guard let game = try store.game(id: id), game.deviceId == deviceId else { throw TriviaError.gameNotFound(id) }
        return game
    }
}
