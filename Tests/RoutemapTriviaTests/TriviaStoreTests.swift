import Foundation
import GRDB
import RoutemapDomain
@testable import RoutemapStorage
import RoutemapTrivia
import Testing

/// The trivia tables on a real SQLite file: the question bank migration 0013 writes, an upgrade
/// of a database that already has devices, and the store's rule that a recorded answer stands.
@Suite("Trivia store")
struct TriviaStoreTests {
    static func migrations(upTo last: String? = nil) throws -> [Migration] {
        let all = try MigrationLoader.load(directory: TriviaServer.migrationsDirectory)
        guard let last else { return all }
        return all.filter { $0.id <= last }
    }

    static func temporaryPath() throws -> (URL, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("routemap-trivia-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory, directory.appendingPathComponent("db.sqlite").path)
    }

    @Test("the bank: at least 60 questions over 3 difficulties and at least 4 categories, each with one correct and three other answers")
    func bank() throws {
        let (directory, path) = try Self.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteStore(path: path, migrations: try Self.migrations())
        defer { try? database.close() }
        let store = SQLiteTriviaStore(database)
        let questions = try store.questions()
        let categories = try store.categories()
        #expect(questions.count >= 60)
        #expect(Set(questions.map(\.difficulty)) == [.easy, .medium, .hard])
        #expect(categories.count >= 4)
        #expect(Set(questions.map(\.category)).isSubset(of: Set(categories.map(\.id))))
        for question in questions {
            #expect(question.wrongAnswers.count == 3)
            #expect(Set(question.answers).count == 4, "\(question.id) has two equal answers")
            #expect(!question.text.isEmpty)
        }
        // Four categories have questions at every level; one filter matches nothing (the no-data screen).
        let bank = QuestionBank(categories: categories, questions: questions)
        let full = categories.filter { category in [Difficulty.easy, .medium, .hard].allSatisfy { !bank.questions($0, category: category.id).isEmpty } }
        #expect(full.count >= 4)
        #expect(bank.questions(.hard, category: "music").isEmpty)
    }

    @Test("an existing database gets the trivia tables; its devices and bills stay")
    func upgrade() async throws {
        let (directory, path) = try Self.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = try SQLiteStore(path: path, migrations: try Self.migrations(upTo: "0012_device_revision"))
        let device = try await DeviceDirectory(store: old).enroll(name: "Front counter").device
        // The bill as a binary of 0012's time wrote it (today's writes columns 0021 adds).
        let bill = (id: "bill_before_trivia", deviceId: device.id)
        try old.onWriter("writing a bill of 0012's time") { database in
            try database.execute(
                sql: """
                    INSERT INTO bills (id, status, currency, tax_rate_bps, subtotal_minor, tax_minor, total_minor, version, created_at,
                                       updated_at, device_id, selected_at)
                    VALUES (?, 'open', 'USD', 875, 0, 0, 0, 1, '2025-01-01T09:00:00.000Z', '2025-01-01T09:00:00.000Z', ?,
                            '2025-01-01T09:00:00.000Z')
                    """, arguments: [bill.id, bill.deviceId])
        }
        try old.close()

        let upgraded = try SQLiteStore(path: path, migrations: try Self.migrations())
        defer { try? upgraded.close() }
        #expect(upgraded.appliedMigrationIDs.prefix(2) == ["0013_trivia_questions", "0014_trivia_games"])
        #expect(try upgraded.bill(id: bill.id)?.deviceId == device.id)
        let store = SQLiteTriviaStore(upgraded)
        let games = TriviaGames(store: store, bank: try QuestionBank(store: store))
        let started = try await games.start(device: device.id, difficulty: .easy, category: nil, idempotency: nil).performedWithoutKey()
        guard case .game(let game) = started else {
            Issue.record("no easy game")
            return
        }
        #expect(try store.game(id: game.id) == game)
    }

    @Test("a game of an unknown device is refused by the database; a recorded answer is never overwritten")
    func constraints() async throws {
        let server = try await TriviaServer()
        let store = SQLiteTriviaStore(server.store)
        let bank = try QuestionBank(store: store)
        let question = bank.questions[0]
        let orphan = Game(
            id: "game_orphan", deviceId: "dev_nobody", difficulty: .easy, category: nil, createdAt: Date().roundedToMilliseconds,
            questions: [Game.Asked(question: question, choiceOrder: [0, 1, 2, 3])])
        await #expect(throws: (any Error).self) { _ = try await store.insert(orphan, idempotency: nil) }
        #expect(try store.game(id: "game_orphan") == nil)

        let device = try #require(try server.store.readTables("a device") { try String.fetchOne($0, sql: "SELECT id FROM devices") })
        var game = orphan
        game = Game(id: "game_kept", deviceId: device, difficulty: .easy, category: nil, createdAt: orphan.createdAt, questions: orphan.questions)
        _ = try await store.insert(game, idempotency: nil)
        _ = try await store.update(gameId: game.id, device: device, idempotency: nil) { stored in
            var changed = stored!
            changed.questions[0].record(answer: question.wrongAnswers[0], at: Date().roundedToMilliseconds)
            return (changed, ())
        }
        // A store asked to write another answer over it keeps the first.
        _ = try await store.update(gameId: game.id, device: device, idempotency: nil) { stored in
            var changed = stored!
            changed.questions[0].record(answer: question.correctAnswer, at: Date().roundedToMilliseconds)
            return (changed, ())
        }
        #expect(try store.game(id: game.id)?.questions[0].answer == question.wrongAnswers[0])
        #expect(try store.game(id: game.id)?.questions[0].correct == false)
    }
}
