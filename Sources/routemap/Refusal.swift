import ArgumentParser
import Foundation

/// How a command stops before it does its work: one line on standard error, `routemap: ` and
/// why, and an exit status from sysexits(3) (64 a bad setting, 65 bad data, 66 no input, 75 try
/// again later) or 1. Returned for the caller to throw.
func refusal(_ message: some CustomStringConvertible, exitStatus: Int32) -> ExitCode {
    FileHandle.standardError.write(Data("routemap: \(message)\n".utf8))
    return ExitCode(exitStatus)
}
