import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// A consistent copy of a routemap database made with SQLite's online backup API, while a
/// server (in this process or another) keeps reading and writing it: `routemap backup`.
///
/// The copy is one read transaction's snapshot of the database: every transaction committed
/// before the backup began is in it, and none is in it halfway. In WAL mode that reader does
/// not block the server's writer, and the writer does not disturb the snapshot. The copy is
/// written to a temporary file beside the destination, checked (`PRAGMA integrity_check`,
/// `PRAGMA foreign_key_check`), synced and only then moved to the destination, so the
/// destination never holds a half-written copy.
public enum SQLiteBackup {
    /// What the copy holds, for the operator's record.
    public struct Summary: Sendable, Equatable {
        /// The migrations applied to the copied database, in order.
        public let migrationIDs: [String]
        public let billCount: Int
        public let paymentCount: Int
        /// The size of the copy in bytes.
        public let bytes: Int
    }

    /// Why a backup was refused or failed. Nothing is left at the destination in any case.
    public enum Failure: Error, CustomStringConvertible, Equatable {
        /// There is no database file at the source path (a backup never creates one).
        case databaseMissing(path: String)
        /// The source is an SQLite file without routemap's migrations table.
        case notARoutemapDatabase(path: String)
        /// The source could not be read (permissions, a lock held past the wait).
        case databaseUnreadable(path: String, reason: String)
        /// The destination exists and replacing it was not asked for.
        case destinationExists(path: String)
        /// The destination is the database itself, or its `-wal`, `-shm` or `-journal` file.
        case destinationIsDatabase(path: String)
        /// The destination's directory does not exist or is not a directory.
        case destinationDirectoryMissing(path: String)
        /// The destination has a `-wal` or `-journal` file beside it: it is in use, or was not
        /// closed cleanly, and SQLite would apply that file to the copy.
        case destinationInUse(path: String, companion: String)
        /// The copy failed its integrity check (the source itself is damaged).
        case integrityCheckFailed(problems: [String])
        /// SQLite or the file system failed.
        case failed(operation: String, reason: String)

        public var description: String {
            switch self {
            case .databaseMissing(let path):
                return "no database at \(path)"
            case .notARoutemapDatabase(let path):
                return "\(path) is not a routemap database (it has no grdb_migrations table)"
            case .databaseUnreadable(let path, let reason):
                return "cannot read \(path): \(reason)"
            case .destinationExists(let path):
                return "\(path) exists; pass --force to replace it"
            case .destinationIsDatabase(let path):
                return "\(path) is the database or one of its own files (-wal, -shm, -journal); back up to another file"
            case .destinationDirectoryMissing(let path):
                return "the directory \(path) does not exist"
            case .destinationInUse(let path, let companion):
                return "\(companion) exists beside \(path): that database is open or was not closed cleanly; choose another file"
            case .integrityCheckFailed(let problems):
                return "the copy fails SQLite's integrity check: \(problems.prefix(5).joined(separator: "; "))"
            case .failed(let operation, let reason):
                return "\(operation) failed: \(reason)"
            }
        }
    }

    /// Copies the routemap database at `source` to `destination` as one consistent snapshot.
    ///
    /// - Parameters:
    ///   - replacing: replace an existing `destination` (atomically); otherwise an existing
    ///     file is refused with ``Failure/destinationExists(path:)``.
    ///   - busyTimeout: how long to wait for another process's lock (a checkpoint, a
    ///     migration) before failing.
    /// - Throws: ``Failure``; the destination is unchanged when it throws.
    @discardableResult
    public static func copy(
        databaseAt source: String, to destination: String, replacing: Bool = false, busyTimeout: TimeInterval = 5
    ) throws -> Summary {
        let sourceURL = URL(fileURLWithPath: source).standardizedFileURL.resolvingSymlinksInPath()
        let destinationURL = URL(fileURLWithPath: destination).standardizedFileURL
        do {
            try SQLiteStore.requireExistingDatabase(at: sourceURL.path, busyTimeout: busyTimeout)
        } catch {
            switch error {
            case .missing: throw Failure.databaseMissing(path: source)
            case .notRoutemap: throw Failure.notARoutemapDatabase(path: source)
            case .unreadable(_, let reason): throw Failure.databaseUnreadable(path: source, reason: reason)
            }
        }
        let directory = destinationURL.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Failure.destinationDirectoryMissing(path: directory.path)
        }
        // SQLite keeps the database's -wal, -shm and -journal beside the path it was opened by;
        // replacing one of those under a running server loses what it holds.
        let databaseFiles = Set([source, sourceURL.path].flatMap { path in
            ["", "-wal", "-shm", "-journal"].map { URL(fileURLWithPath: path + $0).standardizedFileURL.path }
        })
        let resolvedDestination = destinationURL.resolvingSymlinksInPath().path
        if databaseFiles.contains(destinationURL.path) || databaseFiles.contains(resolvedDestination) {
            throw Failure.destinationIsDatabase(path: destination)
        }
        for suffix in ["-wal", "-journal"] where FileManager.default.fileExists(atPath: destinationURL.path + suffix) {
            throw Failure.destinationInUse(path: destination, companion: destinationURL.path + suffix)
        }
        if !replacing, FileManager.default.fileExists(atPath: destinationURL.path) {
            throw Failure.destinationExists(path: destination)
        }

        let partial = ".\(destinationURL.lastPathComponent).partial-"
        removeAbandonedCopies(in: directory.path, named: partial)
        let temporary = directory.appendingPathComponent("\(partial)\(getpid())-\(UUID().uuidString)").path
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: temporary + suffix) }
        }
        let summary = try snapshot(of: sourceURL.path, into: temporary, busyTimeout: busyTimeout)
        try moveIntoPlace(temporary, destinationURL.path, replacing: replacing)
        return summary
    }

    /// Copies `source` into a new file at `path` with one backup step inside one read
    /// transaction, checks the copy and returns what it holds.
    private static func snapshot(of source: String, into path: String, busyTimeout: TimeInterval) throws -> Summary {
        var sourceConfiguration = Configuration()
        sourceConfiguration.readonly = true
        sourceConfiguration.busyMode = .timeout(busyTimeout)
        sourceConfiguration.label = "routemap backup source"
        let copied: DatabaseQueue
        do {
            let reader = try DatabaseQueue(path: source, configuration: sourceConfiguration)
            copied = try DatabaseQueue(path: path)
            try reader.read { database in
                try copied.writeWithoutTransaction { destination in
                    try database.backup(to: destination)
                }
            }
            try reader.close()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            throw Failure.integrityCheckFailed(problems: [error.message ?? "database disk image is malformed"])
        } catch {
            throw Failure.failed(operation: "copying \(source)", reason: reason(error))
        }
        do {
            let summary = try copied.read { database -> Summary in
                let problems = try String.fetchAll(database, sql: "PRAGMA integrity_check")
                guard problems == ["ok"] else { throw Failure.integrityCheckFailed(problems: problems) }
                let foreignKeyProblems = try Row.fetchAll(database, sql: "PRAGMA foreign_key_check")
                guard foreignKeyProblems.isEmpty else {
                    throw Failure.integrityCheckFailed(problems: foreignKeyProblems.map { "foreign key: \($0)" })
                }
                return Summary(
                    migrationIDs: try String.fetchAll(database, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier"),
                    billCount: try Int.fetchOne(database, sql: "SELECT count(*) FROM bills") ?? 0,
                    paymentCount: try Int.fetchOne(database, sql: "SELECT count(*) FROM payments") ?? 0,
                    bytes: 0)
            }
            try copied.close()
            let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            return Summary(
                migrationIDs: summary.migrationIDs, billCount: summary.billCount, paymentCount: summary.paymentCount, bytes: bytes)
        } catch let failure as Failure {
            throw failure
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            // Damage integrity_check cannot even walk: the source itself is damaged.
            throw Failure.integrityCheckFailed(problems: [error.message ?? "database disk image is malformed"])
        } catch {
            throw Failure.failed(operation: "checking the copy", reason: reason(error))
        }
    }

    /// What went wrong, in words: SQLite reports a full disk during a backup step with the
    /// text of another call ("not an error").
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return "\(error)" }
        switch error.resultCode {
        case .SQLITE_FULL: return "the disk is full (SQLite error 13)"
        case .SQLITE_IOERR: return "an I/O error (SQLite error \(error.extendedResultCode.rawValue)): \(error.message ?? "")"
        default: return "\(error)"
        }
    }

    /// Removes the partial copies of backups that were killed before they cleaned up (their
    /// process is gone): a nightly backup under `timeout` would otherwise leave a database's
    /// worth of hidden files each time it was cut short.
    private static func removeAbandonedCopies(in directory: String, named prefix: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0, pid != getpid() else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }  // Its backup may still be running.
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    /// Syncs `temporary` and gives it the name `destination`: with `link(2)`, which refuses an
    /// existing file, or with `rename(2)`, which replaces one atomically. Then syncs the
    /// directory, so the new name survives a power loss.
    private static func moveIntoPlace(_ temporary: String, _ destination: String, replacing: Bool) throws {
        try sync(temporary)
        if replacing {
            guard rename(temporary, destination) == 0 else {
                throw Failure.failed(operation: "renaming the copy to \(destination)", reason: String(cString: strerror(errno)))
            }
        } else {
            guard link(temporary, destination) == 0 else {
                if errno == EEXIST { throw Failure.destinationExists(path: destination) }
                throw Failure.failed(operation: "naming the copy \(destination)", reason: String(cString: strerror(errno)))
            }
        }
        try sync(URL(fileURLWithPath: destination).deletingLastPathComponent().path)
    }

    private static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Failure.failed(operation: "opening \(path)", reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Failure.failed(operation: "syncing \(path)", reason: String(cString: strerror(errno))) }
    }
}
