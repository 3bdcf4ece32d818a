import Foundation
import RoutemapStorage
import Testing

/// SQLite's migrations and PostgreSQL's (`Migrations/postgres/`) are two folders of one history:
/// what both hold must not drift apart.
@Suite("Migration folders: SQLite's and PostgreSQL's")
struct MigrationFoldersTests {
    @Test("from 0013 on (the apps' own tables), every PostgreSQL migration has SQLite's number and name, and the reverse")
    func sameIDsFromTheApps() throws {
        let sqlite = Set(try StorageFixtures.migrations().map(\.id).filter { $0 >= "0013" })
        let postgres = Set(try StorageFixtures.postgresMigrations().map(\.id).filter { $0 >= "0013" })
        #expect(!sqlite.isEmpty)
        #expect(sqlite == postgres)
    }

    @Test("the trivia questions are the same rows in both folders")
    func sameQuestions() throws {
        func rows(_ migrations: [Migration]) throws -> [String] {
            let sql = try #require(migrations.first { $0.id == "0013_trivia_questions" }).sql
            return sql.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("(") }
        }
        let sqlite = try rows(StorageFixtures.migrations()), postgres = try rows(StorageFixtures.postgresMigrations())
        #expect(sqlite.count >= 60)
        #expect(sqlite.count == postgres.count)
        let differing = zip(sqlite, postgres).first { $0 != $1 }
        #expect(differing == nil, "first differing row: \(String(describing: differing))")
    }
}
