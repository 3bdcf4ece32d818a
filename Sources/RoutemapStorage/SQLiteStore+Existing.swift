import Foundation
import GRDB

extension SQLiteStore {
    /// Why a path is not an existing routemap database.
    public enum NotAnExistingDatabase: Error, CustomStringConvertible, Equatable {
        /// No file at the path.
        case missing(path: String)
        /// A file without routemap's migrations table: another program's, or not SQLite.
        case notRoutemap(path: String)

        public var description: String {
            switch self {
            case .missing(let path):
                "no database at \(path) (`routemap serve` or `routemap migrate` makes one)"
            case .notRoutemap(let path):
                "\(path) is not a routemap database (it has no grdb_migrations table)"
            }
        }
    }

    /// Throws unless `path` is a database routemap's migrations made: for the commands that act
    /// on a server's database (`devices`, `menu`), which must not create one where a path has a
    /// typo, nor migrate another program's file.
    public static func requireExistingDatabase(at path: String) throws(NotAnExistingDatabase) {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path: path) }
        var configuration = Configuration()
        configuration.readonly = true
        let isRoutemap = try? DatabaseQueue(path: path, configuration: configuration).read { try $0.tableExists("grdb_migrations") }
        guard isRoutemap == true else { throw .notRoutemap(path: path) }
    }
}
