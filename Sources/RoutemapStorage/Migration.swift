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
