import RoutemapAPI
import RoutemapHTTP

extension TriviaError: ProblemConvertible {
    /// The problem a client receives for a broken trivia rule. Each `code` is stable.
    package var problem: Problem {
        switch self {
        case .gameNotFound(let id):
            return .notFound("game", id)
        case .unknownDifficulty(let text):
            return .notFound(detail: "No difficulty '\(text.prefix(64))'; the difficulties are mixed, easy, medium and hard.")
        case .unknownCategory(let id):
            return Problem(
                status: .unprocessableContent, code: "unknown_category", title: "Unknown category",
                detail: "There is no trivia category '\(id.prefix(64))'.", extensions: ["category": .string(String(id.prefix(64)))])
        case .questionNotInGame(let questionId, let gameId):
            return Problem(
                status: .unprocessableContent, code: "question_not_in_game", title: "Question not in game",
                detail: "The question '\(questionId.prefix(64))' is not one of game \(gameId)'s.", extensions: ["questionId": .string(String(questionId.prefix(64)))])
        case .questionAlreadyAnswered(let questionId):
            return Problem(
                status: .conflict, code: "question_already_answered", title: "Question already answered",
                detail: "The question '\(questionId)' is answered already; its answer stands.", extensions: ["questionId": .string(questionId)])
        case .questionNotCurrent(let questionId, let currentId):
            return Problem(
                status: .conflict, code: "question_not_current", title: "Question not current",
                detail: "Questions are answered in order: answer '\(currentId)' before '\(questionId)'.",
                extensions: ["questionId": .string(questionId), "currentQuestionId": .string(currentId)])
        case .answerNotAChoice(let questionId):
            return Problem(
                status: .unprocessableContent, code: "answer_not_a_choice", title: "Answer not a choice",
                detail: "The answer is not one of the four choices of question '\(questionId)'.", extensions: ["questionId": .string(questionId)])
        }
    }
}
