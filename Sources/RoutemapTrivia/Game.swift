import Foundation

/// One game of trivia: the questions a device is asked, in order, and its answers so far. A game
/// belongs to the device that started it; every other device is told there is no such game.
package struct Game: Sendable, Hashable {
    /// A question as this game asks it: the choices in the order shown, and the answer once given.
    package struct Asked: Sendable, Hashable {
        package let question: Question
        /// The question's four answers in the order this game shows them: indexes into
        /// `question.answers` (so `[2, 0, 3, 1]` shows the second wrong answer first).
        package let choiceOrder: [Int]
        /// The choice given; `nil` until the question is answered.
        package private(set) var answer: String?
        /// Whether `answer` was the correct one when it was given; `nil` before. Kept, not
        /// worked out again: a verdict and a score once told stay as told, even if a migration
        /// later corrects the bank's answer to the question.
        package private(set) var correct: Bool?
        package private(set) var answeredAt: Date?

        /// A question as stored: unanswered, or with its answer, verdict and time.
        package init(question: Question, choiceOrder: [Int], answer: String? = nil, correct: Bool? = nil, answeredAt: Date? = nil) {
            self.question = question
            self.choiceOrder = choiceOrder
            self.answer = answer
            self.correct = correct
            self.answeredAt = answeredAt
        }

        /// The choices as shown.
        package var choices: [String] { choiceOrder.map { question.answers[$0] } }

        /// Records `answer`, given at `time`, with its verdict by the bank as it is now.
        package mutating func record(answer: String, at time: Date) {
            self.answer = answer
            correct = answer == question.correctAnswer
            answeredAt = time
        }
    }

    package let id: String
    package let deviceId: String
    package let difficulty: Difficulty
    /// The category asked for; `nil`: any.
    package let category: String?
    package let createdAt: Date
    package var questions: [Asked]
    /// When the last question was answered; `nil` while the game is played.
    package var finishedAt: Date?

    package init(
        id: String, deviceId: String, difficulty: Difficulty, category: String?, createdAt: Date, questions: [Asked], finishedAt: Date? = nil
    ) {
        self.id = id
        self.deviceId = deviceId
        self.difficulty = difficulty
        self.category = category
        self.createdAt = createdAt
        self.questions = questions
        self.finishedAt = finishedAt
    }

    /// The position of the question to answer next; `nil` once every question is answered.
    package var currentPosition: Int? { questions.firstIndex { $0.answer == nil } }
    package var isFinished: Bool { currentPosition == nil }
    /// Questions answered so far.
    package var answeredCount: Int { questions.count(where: { $0.answer != nil }) }
    /// Questions answered correctly so far.
    package var score: Int { questions.count(where: { $0.correct == true }) }
}
