/// How hard a game's questions are: one level, or `mixed` (any level). A question has one of
/// the three levels; a game may ask for `mixed`.
package enum Difficulty: String, Sendable, Hashable, CaseIterable {
    case mixed, easy, medium, hard

    /// As people read it: "Mixed", "Easy", …
    package var name: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// Whether a question of `level` fits a game of this difficulty.
    package func admits(_ level: Difficulty) -> Bool { self == .mixed || self == level }
}

/// A subject questions are about ("science").
package struct TriviaCategory: Sendable, Hashable {
    /// Stable id, as games and requests name it.
    package let id: String
    /// As people read it ("Literature & art").
    package let name: String

    package init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// One question of the bank: its text, its one correct answer and three wrong ones.
package struct Question: Sendable, Hashable {
    package let id: String
    /// The id of its ``TriviaCategory``.
    package let category: String
    /// `easy`, `medium` or `hard` (never `mixed`).
    package let difficulty: Difficulty
    package let text: String
    package let correctAnswer: String
    /// Exactly three, each different from the others and from the correct answer.
    package let wrongAnswers: [String]

    package init(id: String, category: String, difficulty: Difficulty, text: String, correctAnswer: String, wrongAnswers: [String]) {
        self.id = id
        self.category = category
        self.difficulty = difficulty
        self.text = text
        self.correctAnswer = correctAnswer
        self.wrongAnswers = wrongAnswers
    }

    /// The four answers: the correct one first, then the wrong ones (what a choice order indexes).
    package var answers: [String] { [correctAnswer] + wrongAnswers }
}
