import Foundation
import RoutemapStorage
import RoutemapTestSupport
import Testing

@Suite("Migration files")
struct MigrationLoaderTests {
    @Test("the repository's migrations load in order")
    func repositoryMigrations() throws {
        let migrations = try StorageFixtures.migrations()
        #expect(migrations.map(\.id) == MigrationTests.allIDs)
        #expect(migrations[0].sql.contains("CREATE TABLE bills"))
        #expect(migrations[2].sql.contains("CREATE TABLE devices"))
    }

    @Test("sorted by number, not by listing order; other files ignored")
    func sorted() throws {
        let directory = try TemporaryDirectory()
        try directory.write("0010_ten.sql", "SELECT 10;")
        try directory.write("0002_two.sql", "SELECT 2;")
        try directory.write("0003_three_and_more.sql", "SELECT 3;")
        try directory.write("README.md", "not a migration")
        let migrations = try MigrationLoader.load(directory: directory.url)
        #expect(migrations == [
            Migration(id: "0002_two", sql: "SELECT 2;"),
            Migration(id: "0003_three_and_more", sql: "SELECT 3;"),
            Migration(id: "0010_ten", sql: "SELECT 10;"),
        ])
    }

    @Test(
        "a .sql file not named NNNN_name.sql is refused, naming it",
        arguments: ["1_schema.sql", "0001-schema.sql", "0001_Schema.sql", "0001_.sql", "abcd_x.sql", "00001_x.sql", ".0001_x.sql", "0001_x y.sql"])
    func badName(file: String) throws {
        let directory = try TemporaryDirectory()
        try directory.write("0001_good.sql", "SELECT 1;")
        try directory.write(file, "SELECT 1;")
        let error = #expect(throws: StorageError.self) { try MigrationLoader.load(directory: directory.url) }
        guard case .invalidMigrationName(let named) = error else {
            Issue.record("expected invalidMigrationName, got \(String(describing: error))")
            return
        }
        #expect(named == file)
        #expect(error?.description.contains(file) == true)
    }

    @Test("two files with one number are refused, naming both")
    func duplicateNumber() throws {
        let directory = try TemporaryDirectory()
        try directory.write("0001_schema.sql", "SELECT 1;")
        try directory.write("0002_menu.sql", "SELECT 1;")
        try directory.write("0002_other_menu.sql", "SELECT 1;")
        let error = #expect(throws: StorageError.self) { try MigrationLoader.load(directory: directory.url) }
        guard case .duplicateMigration(let number, let files) = error else {
            Issue.record("expected duplicateMigration, got \(String(describing: error))")
            return
        }
        #expect(number == "0002")
        #expect(files == ["0002_menu.sql", "0002_other_menu.sql"])
    }

    @Test("an empty or missing directory is refused")
    func emptyOrMissing() throws {
        let directory = try TemporaryDirectory()
        let empty = #expect(throws: StorageError.self) { try MigrationLoader.load(directory: directory.url) }
        guard case .noMigrations = empty else {
            Issue.record("expected noMigrations, got \(String(describing: empty))")
            return
        }
        let missing = #expect(throws: StorageError.self) {
            try MigrationLoader.load(directory: directory.url.appendingPathComponent("nope"))
        }
        guard case .cannotReadMigrations(let path, _) = missing else {
            Issue.record("expected cannotReadMigrations, got \(String(describing: missing))")
            return
        }
        #expect(path.hasSuffix("nope"))
        #expect(missing?.underlyingError != nil)
    }
}
