import Foundation
import ArgumentParser

/// Reads `ROUTEMAP_*` environment variables, an empty one counting as unset. (`Setting` decides
/// between a flag, the environment and a default.)
enum Environment {
    /// The value of `name`, or `nil` when it is unset or empty.
    static func value(_ name: String) -> String? {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
        return value
    }

    /// The integer in `name`; a value that is not an integer stops start-up with a clear message.
    static func integer<T: FixedWidthInteger>(_ name: String, as type: T.Type = Int.self) throws -> T? {
        guard let text = value(name) else { return nil }
        guard let number = T(text) else {
            throw ValidationError("\(name)=\(text) is not a valid number.")
        }
        return number
    }
}
