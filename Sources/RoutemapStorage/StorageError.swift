/// A storage failure, with a message that says what went wrong and, where there is one, the
/// error that caused it (``underlyingError``).
public enum StorageError: Error, CustomStringConvertible {
    /// The database file could not be opened or configured.
    case cannotOpen(path: String, underlying: any Error)
    /// The file holds another program's tables and no routemap migrations: migrating would add
    /// routemap's schema to it (a mistyped path), so it is left alone.
    case foreignDatabase(path: String, tables: [String])
    /// The migrations directory could not be listed, or a file in it read.
    case cannotReadMigrations(path: String, underlying: any Error)
    /// The migrations directory holds no `NNNN_name.sql` file.
    case noMigrations(directory: String)
    /// A `.sql` file whose name is not `NNNN_name.sql` (four digits, `_`, then `a-z`, `0-9`, `_`).
    case invalidMigrationName(file: String)
    /// Two migrations share a number or id.
    case duplicateMigration(number: String, files: [String])
    /// The database has applied migrations this binary does not know: it was migrated by a newer
    /// version. Refusing to run protects that newer schema.
    case unknownMigrations([String])
    /// A migration failed; nothing of it was applied.
    case migrationFailed(id: String, underlying: any Error)
    /// A migration's script begins or ends a transaction itself (`statement`, as written). It
    /// would commit part of the migration, or fail it halfway: refused before anything is applied.
    case transactionInMigration(id: String, statement: String)
    /// A stored row cannot be read as a domain value (corrupt or hand-edited data).
    case invalidRow(table: String, id: String, reason: String)
    /// `update` found no bill with that id, or a stored version not older than the new one.
    case staleBill(id: String, version: Int)
    /// A database operation failed.
    case database(operation: String, underlying: any Error)

    /// The error that caused this one, if any.
    public var underlyingError: (any Error)? {
        switch self {
        case .cannotOpen(_, let underlying), .cannotReadMigrations(_, let underlying),
            .migrationFailed(_, let underlying), .database(_, let underlying):
            return underlying
        case .foreignDatabase, .noMigrations, .invalidMigrationName, .duplicateMigration, .unknownMigrations, .transactionInMigration,
            .invalidRow, .staleBill:
            return nil
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let path, let underlying):
            return "Cannot open the database \(path): \(underlying)"
        case .foreignDatabase(let path, let tables):
            let names = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
            return "\(path) is not a routemap database: it holds other tables (\(names)) and no routemap migrations; "
                + "refusing to add routemap's schema to it"
        case .cannotReadMigrations(let path, let underlying):
            return "Cannot read migrations at \(path): \(underlying)"
        case .noMigrations(let directory):
            return "No migrations (NNNN_name.sql files) in \(directory)"
        case .invalidMigrationName(let file):
            return "Migration file name '\(file)' is not NNNN_name.sql (four digits, '_', then a-z, 0-9 or '_')"
        case .duplicateMigration(let number, let files):
            return "Migration \(number) is defined more than once: \(files.joined(separator: ", "))"
        case .unknownMigrations(let ids):
            return "The database has applied migrations this version does not know (\(ids.joined(separator: ", "))): "
                + "it was migrated by a newer routemap; refusing to use it"
        case .migrationFailed(let id, let underlying):
            return "Migration \(id) failed and was rolled back: \(underlying)"
        case .transactionInMigration(let id, let statement):
            return "Migration \(id) has a statement of its own that begins or ends a transaction ('\(statement.prefix(80))'): "
                + "each migration runs in the one transaction the migrator opens, so remove it. Nothing was applied"
        case .invalidRow(let table, let id, let reason):
            return "Invalid row \(id) in \(table): \(reason)"
        case .staleBill(let id, let version):
            return "Bill \(id) cannot be saved at version \(version): it is missing or was saved at that version already"
        case .database(let operation, let underlying):
            return "Database error while \(operation): \(underlying)"
        }
    }
}
