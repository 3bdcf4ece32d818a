import ArgumentParser
import Foundation
import RoutemapStorage

/// `routemap backup PATH`: a consistent copy of the database, made while the server keeps
/// serving (SQLite's online backup, through ``SQLiteBackup``). Restoring is copying it back
/// while the server is stopped (README, "Backup and restore").
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database to PATH, consistently, while the server keeps serving.",
        discussion: """
            The copy is one snapshot: every transaction committed before the backup began, none \
            halfway. It is checked (PRAGMA integrity_check) before it appears at PATH. Exit \
            status: 0 copied; 64 usage (PATH missing, PATH is the database or its -wal, -shm or -journal); 65 not a routemap \
            database, or the copy fails its integrity check (a damaged database); 66 no database at --db, or one \
            that cannot be read; 73 PATH \
            exists (without --force), its directory is missing, or a -wal or -journal file is \
            beside it; 1 SQLite or the file system failed (a lock held past the busy timeout, \
            a full disk). Nothing is left at PATH unless the status is 0.
            """)

    @Argument(help: "The file to write the copy to.")
    var path: String

    @Flag(help: "Replace PATH if it exists (atomically: PATH is the old file or the new copy, never a mix).")
    var force = false

    @Option(help: "Seconds to wait for the server's locks before failing.")
    var busyTimeout: Double = 5

    @OptionGroup var store: StoreOptions

    func validate() throws {
        guard busyTimeout >= 0, busyTimeout <= 600 else { throw ValidationError("--busy-timeout must be 0 to 600 seconds.") }
    }

    func run() throws {
        guard try store.resolvedDatabaseURL() == nil else {
            // PostgreSQL has its own tools, which a managed service runs for you.
            throw refusal("backup copies a SQLite database; back up PostgreSQL with pg_dump or your provider's backups", exitStatus: 64)
        }
        let database = store.resolvedDatabasePath
        let summary: SQLiteBackup.Summary
        do {
            summary = try SQLiteBackup.copy(databaseAt: database, to: path, replacing: force, busyTimeout: busyTimeout)
        } catch let failure as SQLiteBackup.Failure {
            throw refusal("backup: \(failure)", exitStatus: Self.exitStatus(for: failure))
        }
        print(
            "routemap: backed up \(database) to \(path): \(summary.bytes) bytes, "
                + "\(summary.billCount) bills, \(summary.paymentCount) payments, "
                + "migrations up to \(summary.migrationIDs.last ?? "none")")
    }

    /// The exit status of each failure (sysexits.h numbers, as the discussion lists them).
    static func exitStatus(for failure: SQLiteBackup.Failure) -> Int32 {
        switch failure {
        case .destinationIsDatabase: return 64  // EX_USAGE
        case .notARoutemapDatabase, .integrityCheckFailed: return 65  // EX_DATAERR
        case .databaseMissing, .databaseUnreadable: return 66  // EX_NOINPUT
        case .destinationExists, .destinationDirectoryMissing, .destinationInUse: return 73  // EX_CANTCREAT
        case .failed: return 1
        }
    }
}
