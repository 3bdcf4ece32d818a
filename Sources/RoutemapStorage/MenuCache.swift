import GRDB
import RoutemapDomain
import Synchronization

/// The menu by id as last committed, for the writes that look items up (adding to a bill):
/// unknown (`nil`) from a menu change until its batch commits, or after another process wrote
/// the file; the writer reloads it after the commit. While unknown, lookups read the table.
final class MenuCache: Sendable {
    private let state = Mutex<[String: MenuItem]?>(nil)

    /// The menu by id, or `nil` while unknown.
    var items: [String: MenuItem]? { state.withLock { $0 } }

    /// The menu changed, or may have: lookups read the table until `reload`.
    func forget() { state.withLock { $0 = nil } }

    /// Reads the menu on `database` (outside a write transaction, or in a read one).
    func reload(from database: Database) throws {
        let items = try SQLiteTransaction(database: database).menuItems()
        let byId = Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        state.withLock { $0 = byId }
    }
}
