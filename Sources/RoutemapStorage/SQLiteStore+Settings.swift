import GRDB

extension SQLiteStore {
    /// The settings of the writer connection.
    public func writerSettings() throws -> SQLiteConnectionSettings {
        try onWriter("reading the writer's settings") { try Self.settings(of: $0) }
    }

    /// The settings of a reader connection.
    public func readerSettings() throws -> SQLiteConnectionSettings {
        try read("reading a reader's settings") { try Self.settings(of: $0.database) }
    }

    private static func settings(of database: Database) throws -> SQLiteConnectionSettings {
        SQLiteConnectionSettings(
            journalMode: try String.fetchOne(database, sql: "PRAGMA journal_mode") ?? "",
            foreignKeysEnabled: try Bool.fetchOne(database, sql: "PRAGMA foreign_keys") ?? false,
            synchronous: try Int.fetchOne(database, sql: "PRAGMA synchronous") ?? -1,
            busyTimeoutMilliseconds: try Int.fetchOne(database, sql: "PRAGMA busy_timeout") ?? -1)
    }
}
