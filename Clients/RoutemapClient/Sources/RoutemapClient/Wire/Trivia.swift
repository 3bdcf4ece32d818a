import Foundation

// The trivia app's wire types (openapi.yaml's `Trivia…` schemas). Its screens' payloads are read
// from `Screen.payload` by the app's own trivia screens.

/// `POST /v1/trivia/games`' body.
public struct StartTriviaGameRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var difficulty: TriviaDifficulty
    /// A category id, `any`, or nil for any.
    public var category: String?

    public init(difficulty: TriviaDifficulty, category: String? = nil) {
        self.difficulty = difficulty
        self.category = category
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case difficulty, category }
}

/// `POST /v1/trivia/games/{gameId}/answers`' body.
public struct TriviaAnswerRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var questionId: String
    /// One of the question's four choices, as shown.
    public var answer: String

    public init(questionId: String, answer: String) {
        self.questionId = questionId
        self.answer = answer
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case questionId, answer }
}

/// A question as a game asks it; `answer`, `correct` and `correctAnswer` once it is answered.
public struct TriviaQuestion: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var id: String
    public var number: Int
    public var category: String
    public var difficulty: String
    public var text: String
    public var choices: [String]
    public var answer: String?
    public var correct: Bool?
    public var correctAnswer: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case id, number, category, difficulty, text, choices, answer, correct, correctAnswer }
}

/// A game of the device, with its questions and the answers given so far.
public struct TriviaGame: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var id: String
    public var difficulty: TriviaDifficulty
    /// Nil: any category.
    public var category: String?
    /// `playing` or `finished`.
    public var status: String
    public var questionCount: Int
    public var answeredCount: Int
    public var score: Int
    public var createdAt: String
    public var finishedAt: String?
    public var questions: [TriviaQuestion]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, difficulty, category, status, questionCount, answeredCount, score, createdAt, finishedAt, questions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        difficulty = try container.decode(TriviaDifficulty.self, forKey: .difficulty)
        // Required, and null for any category.
        guard container.contains(.category) else {
            throw DecodingError.keyNotFound(CodingKeys.category, .init(codingPath: container.codingPath, debugDescription: "category is required"))
        }
        category = try container.decodeIfPresent(String.self, forKey: .category)
        status = try container.decode(String.self, forKey: .status)
        questionCount = try container.decode(Int.self, forKey: .questionCount)
        answeredCount = try container.decode(Int.self, forKey: .answeredCount)
        score = try container.decode(Int.self, forKey: .score)
        createdAt = try container.decode(String.self, forKey: .createdAt)
        finishedAt = try container.decodeIfPresent(String.self, forKey: .finishedAt)
        questions = try container.decode([TriviaQuestion].self, forKey: .questions)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(difficulty, forKey: .difficulty)
        try container.encode(category, forKey: .category)
        try container.encode(status, forKey: .status)
        try container.encode(questionCount, forKey: .questionCount)
        try container.encode(answeredCount, forKey: .answeredCount)
        try container.encode(score, forKey: .score)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encodeIfPresent(finishedAt, forKey: .finishedAt)
        try container.encode(questions, forKey: .questions)
    }
}

/// A question with the answer given (nil before it is answered) and the correct one.
public struct TriviaAnswered: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var questionId: String
    public var question: String
    public var answer: String?
    public var correct: Bool
    public var correctAnswer: String

    enum CodingKeys: String, CodingKey, CaseIterable { case questionId, question, answer, correct, correctAnswer }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        questionId = try container.decode(String.self, forKey: .questionId)
        question = try container.decode(String.self, forKey: .question)
        // Required, and null before the question is answered.
        guard container.contains(.answer) else {
            throw DecodingError.keyNotFound(CodingKeys.answer, .init(codingPath: container.codingPath, debugDescription: "answer is required"))
        }
        answer = try container.decodeIfPresent(String.self, forKey: .answer)
        correct = try container.decode(Bool.self, forKey: .correct)
        correctAnswer = try container.decode(String.self, forKey: .correctAnswer)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(questionId, forKey: .questionId)
        try container.encode(question, forKey: .question)
        try container.encode(answer, forKey: .answer)
        try container.encode(correct, forKey: .correct)
        try container.encode(correctAnswer, forKey: .correctAnswer)
    }
}

/// `POST /v1/trivia/games`' answer when a game started (201): the game and `push game`.
public struct TriviaGameStarted: Codable, Sendable, Hashable, WireObjectWithKeys, NavigatingAnswer {
    public var game: TriviaGame
    public var navigation: [Step]

    public var stack: [StackEntry]? { nil }

    enum CodingKeys: String, CodingKey, CaseIterable { case game, navigation }
}

/// Why a start found no question (the no-data screen says the same).
public struct TriviaNoDataReason: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var difficulty: TriviaDifficulty
    public var category: String
    public var reason: String

    enum CodingKeys: String, CodingKey, CaseIterable { case difficulty, category, reason }
}

/// `POST /v1/trivia/games`' answer when no question matches (200): why, and `push noData`.
public struct TriviaNoData: Codable, Sendable, Hashable, WireObjectWithKeys, NavigatingAnswer {
    public var noData: TriviaNoDataReason
    public var navigation: [Step]

    public var stack: [StackEntry]? { nil }

    enum CodingKeys: String, CodingKey, CaseIterable { case noData, navigation }
}

/// `POST /v1/trivia/games/{gameId}/answers`' answer: the verdict, the game, the next step.
public struct TriviaAnswerResult: Codable, Sendable, Hashable, WireObjectWithKeys, NavigatingAnswer {
    public var result: TriviaAnswered
    public var game: TriviaGame
    public var navigation: [Step]

    public var stack: [StackEntry]? { nil }

    enum CodingKeys: String, CodingKey, CaseIterable { case result, game, navigation }
}

/// What starting a game answered: a game, or the no-data screen.
public enum TriviaStart: Sendable, Hashable {
    case started(TriviaGameStarted)
    case noData(TriviaNoData)
}
