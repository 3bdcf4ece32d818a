import Foundation
import ArgumentParser

/// Reads `ROUTEMAP_*` settings: a flag wins over the environment, the environment over the default.
enum Environment {
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

    /// The number in `name`; a value that is not a number stops start-up with a clear message.
    static func double(_ name: String) throws -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text) else { throw ValidationError("\(name)=\(text) is not a valid number.") }
        return number
    }

    /// The integer setting `flag`, else the environment variable `name`, or `nil` when neither
    /// is set; a value outside `range` stops start-up naming the setting (`what`) and the range.
    static func integer(_ flag: Int?, _ name: String, _ what: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = try flag ?? integer(name) else { return nil }
        guard range.contains(value) else {
            throw ValidationError("\(what) must be \(range.lowerBound) to \(range.upperBound), not \(value).")
        }
        return value
    }
}
