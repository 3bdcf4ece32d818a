import Foundation
import GRDB
import RoutemapDomain
import RoutemapStorage

/// The ``TriviaStore`` on the server's SQLite file: the tables of migrations
/// `0013_trivia_questions` and `0014_trivia_games`, read and written through the point of sale's
/// `SQLiteStore` (its readers, its one writer and its group commit), so the file has one writer.
///
/// Games are read from SQL each time (a game is small, and a request reads it at most twice);
/// the bank is read once, by ``QuestionBank``.
package struct SQLiteTriviaStore: TriviaStore {
    let database: SQLiteStore

    package init(_ database: SQLiteStore) {
        self.database = database
    }

    package func categories() throws -> [TriviaCategory] {
        try database.readTables("reading the trivia categories") { db in
            try Row.fetchAll(db, sql: "SELECT id, name FROM trivia_categories ORDER BY position").map {
                TriviaCategory(id: $0["id"], name: $0["name"])
            }
        }
    }

    package func questions() throws -> [Question] {
        try database.readTables("reading the trivia questions") { db in
            try Row.fetchAll(db, sql: "SELECT * FROM trivia_questions ORDER BY id").map(Self.question)
        }
    }

    package func game(id: String) throws -> Game? {
        try database.readTables("reading game \(id)") { db in try Self.game(id: id, in: db) }
    }

    package func insert(_ game: Game, idempotency: IdempotencyKey<Game>?) async throws -> IdempotentOutcome<Game> {
        try await write(device: game.deviceId, idempotency: idempotency) { db in
            try db.execute(
                sql: "INSERT INTO trivia_games (id, device_id, difficulty, category, created_at, finished_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [
                    game.id, game.deviceId, game.difficulty.rawValue, game.category, Timestamp.format(game.createdAt),
                    game.finishedAt.map(Timestamp.format),
                ])
            for (position, asked) in game.questions.enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO trivia_game_questions (game_id, position, question_id, choice_order, answer, correct, answered_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        game.id, position, asked.question.id, asked.choiceOrder.map(String.init).joined(), asked.answer,
                        asked.correct, asked.answeredAt.map(Timestamp.format),
                    ])
            }
            return game
        }
    }

    package func update<T: Sendable>(
        gameId id: String, device deviceId: String, idempotency: IdempotencyKey<T>?, _ change: @escaping @Sendable (Game?) throws -> (Game, T)
    ) async throws -> IdempotentOutcome<T> {
        try await write(device: deviceId, idempotency: idempotency) { db in
            let before = try Self.game(id: id, in: db)
            let (after, result) = try change(before)
            guard let before, after.id == before.id, after.questions.count == before.questions.count else {
                throw StorageError.invalidRow(table: "trivia_games", id: id, reason: "an update must return the game it was given")
            }
            for (position, (old, new)) in zip(before.questions, after.questions).enumerated() where old.answer == nil {
                guard let answer = new.answer else { continue }
                try db.execute(
                    sql: """
                        UPDATE trivia_game_questions SET answer = ?, correct = ?, answered_at = ?
                        WHERE game_id = ? AND position = ? AND answer IS NULL
                        """,
                    arguments: [answer, new.correct, Timestamp.format(new.answeredAt ?? Date()), id, position])
                // One writer: the game read above is what is stored, so its unanswered question is.
                guard db.changesCount == 1 else {
                    throw InvariantViolation("question \(position) of game \(id) was answered while its answer was decided")
                }
            }
            if before.finishedAt == nil, let finishedAt = after.finishedAt {
                try db.execute(
                    sql: "UPDATE trivia_games SET finished_at = ? WHERE id = ?", arguments: [Timestamp.format(finishedAt), id])
            }
            return result
        }
    }

    /// One write transaction, under the point of sale's rules for an idempotency key when there
    /// is one (its answer recorded in `idempotency_keys`, with the effect).
    private func write<T: Sendable>(
        device: String, idempotency: IdempotencyKey<T>?, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> IdempotentOutcome<T> {
        let result: Result<IdempotentOutcome<T>, any Error> = try await database.writeTables(durability: .normal) { db in
            guard let idempotency else { return .success(.performed(try body(db), recorded: nil)) }
            return try idempotency.perform(device: device, now: Date().roundedToMilliseconds, in: SQLiteStore.recordedAnswers(in: db)) { try body(db) }
        }
        return try result.get()
    }

    package func recordedAnswer(device deviceId: String, key: String) throws -> RecordedAnswer? {
        try database.readTables("reading idempotency key \(key)") { db in
            try SQLiteStore.recordedAnswers(in: db).recordedAnswer(deviceId: deviceId, key: key)
        }
    }

    package func ping() throws {
        try database.ping()
    }

    // MARK: Rows

    private static func question(_ row: Row) throws -> Question {
        let level: String = row["difficulty"]
        guard let difficulty = Difficulty(rawValue: level), difficulty != .mixed else {
            throw StorageError.invalidRow(table: "trivia_questions", id: row["id"], reason: "difficulty '\(level)'")
        }
        return Question(
            id: row["id"], category: row["category"], difficulty: difficulty, text: row["text"], correctAnswer: row["correct_answer"],
            wrongAnswers: [row["wrong_answer_1"], row["wrong_answer_2"], row["wrong_answer_3"]])
    }

    private static func game(id: String, in db: Database) throws -> Game? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM trivia_games WHERE id = ?", arguments: [id]) else { return nil }
        let level: String = row["difficulty"]
        guard let difficulty = Difficulty(rawValue: level), let createdAt = Timestamp.parse(row["created_at"]) else {
            throw StorageError.invalidRow(table: "trivia_games", id: id, reason: "unreadable difficulty or time")
        }
        let asked = try Row.fetchAll(
            db,
            sql: """
                SELECT q.*, g.choice_order, g.answer, g.correct, g.answered_at FROM trivia_game_questions g
                JOIN trivia_questions q ON q.id = g.question_id WHERE g.game_id = ? ORDER BY g.position
                """,
            arguments: [id]
        ).map { row in
            let order = (row["choice_order"] as String).compactMap { $0.wholeNumberValue }
            guard order.sorted() == [0, 1, 2, 3] else {
                throw StorageError.invalidRow(table: "trivia_game_questions", id: id, reason: "choice order \(order)")
            }
            let answeredAt = (row["answered_at"] as String?).flatMap(Timestamp.parse)
            return Game.Asked(
                question: try question(row), choiceOrder: order, answer: row["answer"], correct: row["correct"] as Bool?, answeredAt: answeredAt)
        }
        return Game(
            id: id, deviceId: row["device_id"], difficulty: difficulty, category: row["category"], createdAt: createdAt, questions: asked,
            finishedAt: (row["finished_at"] as String?).flatMap(Timestamp.parse))
    }
}
