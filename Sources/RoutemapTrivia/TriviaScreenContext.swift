/// What the trivia payload builders get with each request: the calling device's games (a builder
/// sees no other device's), the question bank, and the game the endpoint already holds (so a
/// builder does not read it again).
package struct TriviaScreenContext: Sendable {
    let games: TriviaGames
    let deviceId: String
    let known: Game?

    var bank: QuestionBank { games.bank }

    /// The device's game `id`, from what the endpoint passed or else from the store.
    func game(id: String) throws -> Game {
        if let known, known.id == id, known.deviceId == deviceId { return known }
        return try games.game(id: id, device: deviceId)
    }

    /// The difficulty an input names; an unknown one is not found, as an unknown game is.
    func difficulty(_ text: String) throws -> Difficulty {
        guard let difficulty = Difficulty(rawValue: text) else { throw TriviaError.unknownDifficulty(text) }
        return difficulty
    }

    /// The category an input names (`nil` for ``TriviaInput/anyCategory``); an unknown one is not found.
    func category(_ text: String) throws -> TriviaCategory? {
        guard text != TriviaInput.anyCategory else { return nil }
        guard let category = bank.category(id: text) else { throw TriviaError.unknownCategory(text) }
        return category
    }
}
