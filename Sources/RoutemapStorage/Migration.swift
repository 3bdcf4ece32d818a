/// One schema or data change: an SQL script applied once, in order, and recorded by id.
public struct Migration: Sendable, Hashable {
    /// The file name without `.sql`, e.g. `0001_schema`; recorded in the database once applied.
    public let id: String
    /// One or more SQL statements. They run inside a transaction the migrator opens, so the
    /// script must not contain `BEGIN`/`COMMIT` itself.
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
