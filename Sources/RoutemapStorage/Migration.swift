import Foundation

/// One schema or data change: an SQL script applied once, in order, and recorded by id.
public struct Migration: Sendable, Hashable {
    /// The file name without `.sql`, e.g. `0001_schema`; recorded in the database once applied.
    public let id: String
    /// One or more SQL statements. They run inside a transaction the migrator opens, so the
    /// script must not contain `BEGIN`/`COMMIT` itself: the migrators refuse such a script
    /// before applying anything (``refuseTransactionStatements(_:)``).
    public let sql: String

    public init(id: String, sql: String) {
        self.id = id
        self.sql = sql
    }
}

extension Migration {
    /// Throws ``StorageError/duplicateMigration(number:files:)`` when two of `migrations` share
    /// an id (a list that did not come through ``MigrationLoader``, which names the files).
    package static func checkUnique(_ migrations: [Migration]) throws {
        let ids = migrations.map(\.id)
        if let duplicate = Dictionary(grouping: ids, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw StorageError.duplicateMigration(number: duplicate, files: [duplicate, duplicate])
        }
    }

    /// Throws ``StorageError/transactionInMigration(id:statement:)`` for the first of
    /// `statements` (this migration's script, split by the store's own rules) that begins or
    /// ends a transaction: `BEGIN`, `START`, `COMMIT`, `END`, `ABORT`, or `ROLLBACK` other than
    /// `ROLLBACK TO` a savepoint. Savepoints are allowed.
    package func refuseTransactionStatements(_ statements: [String]) throws {
        for statement in statements {
            let words = Migration.leadingWords(of: statement, count: 2)
            switch words.first {
            case "BEGIN", "START", "COMMIT", "END", "ABORT":
                break
            case "ROLLBACK" where words.dropFirst().first != "TO":
                break
            default:
                continue
            }
            throw StorageError.transactionInMigration(id: id, statement: statement.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// The first `count` words of `statement`, upper-cased, past blanks and comments (`-- …`
    /// to the end of the line, `/* … */`).
    static func leadingWords(of statement: String, count: Int) -> [String] {
        var words: [String] = []
        var rest = Substring(statement)
        while words.count < count {
            rest = rest.drop(while: \.isWhitespace)
            if rest.hasPrefix("--") {
                rest = rest.drop(while: { $0 != "\n" })
            } else if rest.hasPrefix("/*") {
                guard let end = rest.range(of: "*/") else { break }
                rest = rest[end.upperBound...]
            } else {
                let word = rest.prefix(while: { $0.isLetter || $0 == "_" })
                guard !word.isEmpty else { break }
                words.append(word.uppercased())
                rest = rest.dropFirst(word.count)
            }
        }
        return words
    }

    /// The ids of `migrations` not in `applied`, in order. Throws
    /// ``StorageError/unknownMigrations(_:)`` when the database applied some not in
    /// `migrations` (a newer binary's): every store refuses such a database, before changing it.
    package static func pendingIDs(_ migrations: [Migration], applied: Set<String>) throws -> [String] {
        let ids = migrations.map(\.id)
        let unknown = applied.subtracting(ids).sorted()
        guard unknown.isEmpty else { throw StorageError.unknownMigrations(unknown) }
        return ids.filter { !applied.contains($0) }
    }
}
