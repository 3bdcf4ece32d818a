import Foundation
import RoutemapJSON

// The wire shapes of the trivia app's values (openapi.yaml's `TriviaGame`, `TriviaQuestion`,
// `TriviaAnswered`). A question never shows its correct answer before it is answered.
enum TriviaJSON {
    /// A game with every question: text and choices, and for each answered one the answer,
    /// whether it was correct and the correct answer.
    static func game(_ game: Game) -> JSON {
        var object: JSONObject = [
            "id": .string(game.id),
            "difficulty": .string(game.difficulty.rawValue),
            "category": game.category.map(JSON.string) ?? .null,
            "status": .string(game.isFinished ? "finished" : "playing"),
            "questionCount": .int(Int64(game.questions.count)),
            "answeredCount": .int(Int64(game.answeredCount)),
            "score": .int(Int64(game.score)),
            "createdAt": .string(game.createdAt.wireText),
        ]
        if let finishedAt = game.finishedAt { object.append("finishedAt", .string(finishedAt.wireText)) }
        object.append("questions", .array(game.questions.enumerated().map { question($0.element, number: $0.offset + 1) }))
        return .object(object)
    }

    /// One question as the game asks it; `answer`, `correct` and `correctAnswer` once answered.
    static func question(_ asked: Game.Asked, number: Int) -> JSON {
        var object: JSONObject = [
            "id": .string(asked.question.id),
            "number": .int(Int64(number)),
            "category": .string(asked.question.category),
            "difficulty": .string(asked.question.difficulty.rawValue),
            "text": .string(asked.question.text),
            "choices": .array(asked.choices.map(JSON.string)),
        ]
        if let answer = asked.answer {
            object.append("answer", .string(answer))
            object.append("correct", .bool(asked.correct == true))
            object.append("correctAnswer", .string(asked.question.correctAnswer))
        }
        return .object(object)
    }

    /// An answered question, short: what the results and the answer's verdict show.
    static func answered(_ asked: Game.Asked) -> JSON {
        [
            "questionId": .string(asked.question.id),
            "question": .string(asked.question.text),
            "answer": asked.answer.map(JSON.string) ?? .null,
            "correct": .bool(asked.correct == true),
            "correctAnswer": .string(asked.question.correctAnswer),
        ]
    }
}
