import RoutemapDomain

/// A trivia rule a request broke. Each changes nothing; the API answers each with a problem of
/// a stable `code` (`TriviaError+Problem.swift`).
package enum TriviaError: StateConflict, Sendable, Equatable {
    /// No game with this id belongs to the calling device (another device's game is not shown).
    case gameNotFound(String)
    /// No category with this id.
    case unknownCategory(String)
    /// A navigation input names no difficulty (`trivia://play/extreme`).
    case unknownDifficulty(String)
    /// The question is not one of this game's.
    case questionNotInGame(questionId: String, gameId: String)
    /// The question was answered already; its answer stands.
    case questionAlreadyAnswered(questionId: String)
    /// The question comes later in the game: the questions are answered in order.
    case questionNotCurrent(questionId: String, currentId: String)
    /// The answer is not one of the question's four choices.
    case answerNotAChoice(questionId: String)
}

extension TriviaError {
    /// The refusals of the game's state (409s: answered already, not the current question),
    /// recorded under an `Idempotency-Key` as the point of sale's conflicts are.
    package var isStateConflict: Bool {
        switch self {
        case .questionAlreadyAnswered, .questionNotCurrent: true
        case .gameNotFound, .unknownCategory, .unknownDifficulty, .questionNotInGame, .answerNotAChoice: false
        }
    }
}
