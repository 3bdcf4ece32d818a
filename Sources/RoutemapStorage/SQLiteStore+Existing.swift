import Foundation
import GRDB

extension SQLiteStore {
    /// Why a path is not an existing routemap database.
    public enum NotAnExistingDatabase: Error, CustomStringConvertible, Equatable {
        /// No file at the path.
        case missing(path: String)
        /// A file without routemap's migrations table: another program's, or not SQLite.
        case notRoutemap(path: String)
        /// A file that could not be read (permissions, a lock held past the wait).
        case unreadable(path: String, reason: String)

        public var description: String {
            switch self {
            case .missing(let path):
                "no database at \(path) (`routemap serve` or `routemap migrate` makes one)"
            case .notRoutemap(let path):
                "\(path) is not a routemap database (it has no grdb_migrations table)"
            case .unreadable(let path, let reason):
                "cannot read \(path): \(reason)"
            }
        }
    }

    /// Throws unless `path` is a database routemap's migrations made: for the commands that act
    /// on a server's database (`devices`, `menu`, `backup`), which must not create one where a
    /// path has a typo, nor change or copy another program's file.
    public static func requireExistingDatabase(at path: String, busyTimeout: TimeInterval = 5) throws(NotAnExistingDatabase) {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        let isRoutemap: Bool
        do {
            isRoutemap = try readOnlyQueue(at: path, busyTimeout: busyTimeout).read { try $0.tableExists("grdb_migrations") }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw .notRoutemap(path: path)  // Not even SQLite.
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        guard isRoutemap else { throw .notRoutemap(path: path) }
    }

    /// Throws ``StorageError/foreignDatabase(path:tables:)`` when the SQLite file at `path`
    /// holds tables but no routemap migrations; a missing file, an empty one and a database
    /// without tables pass (migrating makes them routemap's). Read without changing the file.
    static func refuseForeignDatabase(at path: String, busyTimeout: TimeInterval) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        let tables: [String]
        do {
            tables = try readOnlyQueue(at: path, busyTimeout: busyTimeout).read(foreignTables(in:))
        } catch {
            throw StorageError.cannotOpen(path: path, underlying: error)
        }
        if !tables.isEmpty { throw StorageError.foreignDatabase(path: path, tables: tables) }
    }

    /// Another program's tables and views in `database`: none when it has routemap's
    /// migrations table, or no table at all.
    static func foreignTables(in database: Database) throws -> [String] {
        guard try !database.tableExists("grdb_migrations") else { return [] }
        return try String.fetchAll(
            database, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name")
    }

    /// A read-only connection to the file at `path` that waits up to `busyTimeout` for another
    /// process's lock.
    static func readOnlyQueue(at path: String, busyTimeout: TimeInterval) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
