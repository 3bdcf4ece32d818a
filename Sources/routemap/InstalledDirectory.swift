import ArgumentParser
import Foundation

/// Finds a directory the binary reads at start-up (`Migrations`, `Public`): the one the operator
/// names, else the installed one beside the binary (`<executable>/../share/routemap/<name>`, as in
/// the container image), else the source tree's `./<name>`.
enum InstalledDirectory {
    /// The directory `setting` names (its flag's value `flagValue`, else its environment
    /// variable; a value it refuses, such as an empty one, throws), else the first of the
    /// installed and source-tree directories that exists; with none, the command stops with one
    /// line naming the places it looked (exit 64).
    static func locate(_ name: String, setting: Setting<String?>, flagValue: String?) throws -> URL {
        if let explicit = try setting.resolve(flagValue) {  // The setting refuses a path that is not a directory.
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let installed = executable.deletingLastPathComponent()
            .appendingPathComponent("../share/routemap/\(name)", isDirectory: true).standardizedFileURL
        for candidate in [installed, URL(fileURLWithPath: name, isDirectory: true)] where exists(candidate.path) {
            return candidate
        }
        throw refusal(
            "no \(name) directory found (looked in \(installed.path) and ./\(name)): pass --\(setting.flag) or set \(setting.environment)",
            exitStatus: ExitCode.validationFailure.rawValue)
    }

    /// Whether `path` names a directory that exists.
    @Sendable static func exists(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
