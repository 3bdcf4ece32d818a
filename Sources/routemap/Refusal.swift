import ArgumentParser
import Foundation
import RoutemapStorage

/// How a command stops before it does its work: one line on standard error, `routemap: ` and
/// why, and an exit status from sysexits(3) (64 a bad setting, 65 bad data, 66 no input, 75 try
/// again later) or 1. Returned for the caller to throw.
func refusal(_ message: some CustomStringConvertible, exitStatus: Int32) -> ExitCode {
    FileHandle.standardError.write(Data("routemap: \(message)\n".utf8))
    return ExitCode(exitStatus)
}

/// The refusal of a store that cannot be opened or migrated (`serve`, `migrate`): 65 for data
/// routemap will not use as it is (another program's file, a newer binary's migrations, a
/// broken migration file or row), 66 for a database or migrations directory that cannot be
/// read, 1 for a failure while working (a migration's statement, SQLite itself).
func refusal(_ error: StorageError) -> ExitCode {
    switch error {
    case .foreignDatabase, .unknownMigrations, .noMigrations, .invalidMigrationName, .duplicateMigration, .transactionInMigration,
        .invalidRow:
        refusal(error, exitStatus: 65)  // EX_DATAERR
    case .cannotOpen, .cannotReadMigrations:
        refusal(error, exitStatus: 66)  // EX_NOINPUT
    case .migrationFailed, .staleBill, .database:
        refusal(error, exitStatus: 1)
    }
}
