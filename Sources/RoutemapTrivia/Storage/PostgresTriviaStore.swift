import Foundation
import PostgresNIO
import RoutemapDomain
import RoutemapPostgres
import RoutemapStorage

/// The ``TriviaStore`` on the server's PostgreSQL database: the tables of
/// `Migrations/postgres/0013_trivia_questions` and `0014_trivia_games`, read and written through
/// the point of sale's `PostgresStore` (its connections, threads and transactions), so any node
/// may serve any game.
package struct PostgresTriviaStore: TriviaStore {
    let database: PostgresStore

    package init(_ database: PostgresStore) {
        self.database = database
    }

    package var readsAreImmediate: Bool { database.readsAreImmediate }

    package func reading<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await database.reading(body)
    }

    package func categories() throws -> [TriviaCategory] {
        try database.readTables("reading the trivia categories") { tables in
            try tables.rows("SELECT id, name FROM trivia_categories ORDER BY position").map { row in
                let (id, name) = try row.decode((String, String).self)
                return TriviaCategory(id: id, name: name)
            }
        }
    }

    package func questions() throws -> [Question] {
        try database.readTables("reading the trivia questions") { tables in
            try tables.rows(
                "SELECT id, category, difficulty, text, correct_answer, wrong_answer_1, wrong_answer_2, wrong_answer_3 FROM trivia_questions ORDER BY id COLLATE \"C\""
            ).map { try Self.question($0.makeRandomAccess(), from: 0) }
        }
    }

    package func game(id: String) throws -> Game? {
        guard !id.utf8.contains(0) else { return nil }  // PostgreSQL text holds no U+0000: no such game.
        return try database.readTables("reading game \(id)") { try Self.game(id: id, in: $0) }
    }

    package func insert(_ game: Game, idempotency: IdempotencyKey<Game>?) async throws -> IdempotentOutcome<Game> {
        try await write(device: game.deviceId, idempotency: idempotency) { tables in
            tables.enqueue(
                """
                INSERT INTO trivia_games (id, device_id, difficulty, category, created_at, finished_at)
                VALUES (\(game.id), \(game.deviceId), \(game.difficulty.rawValue), \(game.category), \(game.createdAt), \(game.finishedAt))
                """)
            for (position, asked) in game.questions.enumerated() {
                tables.enqueue(
                    """
                    INSERT INTO trivia_game_questions (game_id, position, question_id, choice_order, answer, correct, answered_at)
                    VALUES (\(game.id), \(position), \(asked.question.id), \(asked.choiceOrder.map(String.init).joined()), \(asked.answer),
                            \(asked.correct), \(asked.answeredAt))
                    """)
            }
            return game
        }
    }

    package func update<T: Sendable>(
        gameId id: String, device deviceId: String, idempotency: IdempotencyKey<T>?, _ change: @escaping @Sendable (Game?) throws -> (Game, T)
    ) async throws -> IdempotentOutcome<T> {
        try await write(device: deviceId, idempotency: idempotency) { tables in
            // The game's row locked first: two answers to it are decided one after the other.
            tables.enqueue("SELECT 1 FROM trivia_games WHERE id = \(id) FOR UPDATE")
            let before = try Self.game(id: id, in: tables)
            let (after, result) = try change(before)
            guard let before, after.id == before.id, after.questions.count == before.questions.count else {
                throw StorageError.invalidRow(table: "trivia_games", id: id, reason: "an update must return the game it was given")
            }
            for (position, (old, new)) in zip(before.questions, after.questions).enumerated() where old.answer == nil {
                guard let answer = new.answer else { continue }
                // Only over no answer: if one was recorded meanwhile (the lock above makes that
                // impossible), the transaction runs again and the change sees it.
                tables.enqueue(
                    """
                    UPDATE trivia_game_questions SET answer = \(answer), correct = \(new.correct), answered_at = \(new.answeredAt ?? Date())
                    WHERE game_id = \(id) AND position = \(position) AND answer IS NULL
                    """, changing: 1)
            }
            if before.finishedAt == nil, let finishedAt = after.finishedAt {
                tables.enqueue("UPDATE trivia_games SET finished_at = \(finishedAt) WHERE id = \(id)")
            }
            return result
        }
    }

    /// One write transaction, under the point of sale's rules for an idempotency key when there
    /// is one (its answer recorded in `idempotency_keys`, with the effect).
    private func write<T: Sendable>(
        device: String, idempotency: IdempotencyKey<T>?, _ body: @escaping @Sendable (AppTables) throws -> T
    ) async throws -> IdempotentOutcome<T> {
        let result: Result<IdempotentOutcome<T>, any Error> = try await database.writeTables(durability: .normal) { tables in
            guard let idempotency else { return .success(.performed(try body(tables), recorded: nil)) }
            return try idempotency.perform(device: device, now: Date().roundedToMilliseconds, in: tables.recordedAnswers) {
                try body(tables)
            }
        }
        return try result.get()
    }

    package func recordedAnswer(device deviceId: String, key: String) throws -> RecordedAnswer? {
        try database.readTables("reading idempotency key \(key)") { tables in
            try tables.recordedAnswers.recordedAnswer(deviceId: deviceId, key: key)
        }
    }

    package func ping() throws {
        try database.ping()
    }

    // MARK: Rows

    /// A question from eight columns starting at `first`: id, category, difficulty, text, the
    /// correct answer and the three wrong ones.
    private static func question(_ cells: PostgresRandomAccessRow, from first: Int) throws -> Question {
        let id = try cells[first].decode(String.self), level = try cells[first + 2].decode(String.self)
        guard let difficulty = Difficulty(rawValue: level), difficulty != .mixed else {
            throw StorageError.invalidRow(table: "trivia_questions", id: id, reason: "difficulty '\(level)'")
        }
        return Question(
            id: id, category: try cells[first + 1].decode(String.self), difficulty: difficulty, text: try cells[first + 3].decode(String.self),
            correctAnswer: try cells[first + 4].decode(String.self),
            wrongAnswers: [try cells[first + 5].decode(String.self), try cells[first + 6].decode(String.self), try cells[first + 7].decode(String.self)])
    }

    private static func game(id: String, in tables: AppTables) throws -> Game? {
        guard let row = try tables.rows(
            "SELECT device_id, difficulty, category, created_at, finished_at FROM trivia_games WHERE id = \(id)"
        ).first else { return nil }
        let (deviceId, level, category, createdAt, finishedAt) = try row.decode((String, String, String?, Date, Date?).self)
        guard let difficulty = Difficulty(rawValue: level) else {
            throw StorageError.invalidRow(table: "trivia_games", id: id, reason: "difficulty '\(level)'")
        }
        let asked = try tables.rows(
            """
            SELECT q.id, q.category, q.difficulty, q.text, q.correct_answer, q.wrong_answer_1, q.wrong_answer_2, q.wrong_answer_3,
                   g.choice_order, g.answer, g.correct, g.answered_at
            FROM trivia_game_questions g JOIN trivia_questions q ON q.id = g.question_id
            WHERE g.game_id = \(id) ORDER BY g.position
            """
        ).map { row in
            let cells = row.makeRandomAccess()
            let order = try cells[8].decode(String.self).compactMap { $0.wholeNumberValue }
            guard order.sorted() == [0, 1, 2, 3] else {
                throw StorageError.invalidRow(table: "trivia_game_questions", id: id, reason: "choice order \(order)")
            }
            return Game.Asked(
                question: try question(cells, from: 0), choiceOrder: order, answer: try cells[9].decode(String?.self),
                correct: try cells[10].decode(Bool?.self), answeredAt: try cells[11].decode(Date?.self).map(\.roundedToMilliseconds))
        }
        return Game(
            id: id, deviceId: deviceId, difficulty: difficulty, category: category, createdAt: createdAt.roundedToMilliseconds, questions: asked,
            finishedAt: finishedAt?.roundedToMilliseconds)
    }
}

