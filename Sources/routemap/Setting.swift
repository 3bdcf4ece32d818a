import ArgumentParser

/// One setting of `routemap`, declared once: its flag, its environment variable, its default,
/// the values it allows and a line of help. The flag's `--help` text, the README's settings
/// table (`routemap settings`, checked against the README by a test) and the validation all
/// come from here.
///
/// A value comes from the flag, else the environment variable, else the default. A value the
/// setting does not allow stops start-up with one line naming the setting and what it allows.
struct Setting<Value: Sendable>: SettingDescription {
    /// The long flag without its dashes: `threads` for `--threads`.
    let flag: String
    let environment: String
    /// What the default is, as `--help` and the README say it.
    let defaultText: String
    /// What values are allowed, as `--help`, the README and the error say it ("1 to 1024").
    let allowed: String
    let summary: String
    let defaultValue: @Sendable () -> Value
    /// The value `text` stands for, or `nil` when the setting does not allow it.
    let parse: @Sendable (String) -> Value?
    /// A secret (a code, a token): a refused value is not repeated in the error.
    var isSecret = false

    /// The value from `flagValue` (the parsed command line), else the environment, else the default.
    func resolve(_ flagValue: String?) throws(SettingError) -> Value {
        let source: String, text: String
        if let flagValue {
            (source, text) = ("--\(flag)", flagValue)
        } else if let value = Environment.value(environment) {
            (source, text) = (environment, value)
        } else {
            return defaultValue()
        }
        guard let value = parse(text) else { throw SettingError(source: source, allowed: allowed, given: isSecret ? nil : text) }
        return value
    }

    /// The option's name and help, for `@Option(name:help:)`.
    var name: NameSpecification { .customLong(flag) }
    var help: ArgumentHelp { ArgumentHelp(helpText, valueName: flag) }
}

/// What the documentation needs of a setting, whatever its value's type.
protocol SettingDescription: Sendable {
    var flag: String { get }
    var environment: String { get }
    var defaultText: String { get }
    var allowed: String { get }
    var summary: String { get }
}

extension SettingDescription {
    /// The `--help` text: summary, allowed values, environment variable and default, as plain
    /// text (the README's Markdown links keep their words, code spans lose their backticks).
    var helpText: String {
        Self.plain("\(summary) Allowed: \(allowed). Env: \(environment). Default: \(defaultText).")
    }

    private static func plain(_ markdown: String) -> String {
        markdown.replacing(/\[([^\]]+)\]\(#[^)]*\)/) { $0.output.1 }.filter { $0 != "`" }
    }

    /// The setting's row in the README's table.
    var markdownRow: String {
        "| `--\(flag)` | `\(environment)` | \(defaultText) | \(allowed) | \(summary) |"
    }
}

/// A value a setting does not allow: one line naming the setting and what it allows.
struct SettingError: Error, CustomStringConvertible {
    let source: String
    let allowed: String
    /// The refused value, or `nil` for a secret's.
    let given: String?

    var description: String {
        guard let given else { return "\(source) must be \(allowed)" }
        let shown = given.count > 60 ? String(given.prefix(60)) + "…" : given
        return "\(source) must be \(allowed), not '\(shown)'"
    }
}

extension Setting where Value == Int {
    /// An integer setting within `range`; `note` adds what special values mean ("0 = off").
    static func integer(
        _ flag: String, _ environment: String, default value: Int, defaultText: String? = nil,
        in range: ClosedRange<Int>, note: String? = nil, _ summary: String
    ) -> Setting {
        Setting(
            flag: flag, environment: environment, defaultText: defaultText ?? "`\(value)`",
            allowed: "\(range.lowerBound) to \(range.upperBound)" + (note.map { " (\($0))" } ?? ""), summary: summary,
            defaultValue: { value }, parse: { Int($0).flatMap { range.contains($0) ? $0 : nil } })
    }
}

extension Setting where Value == String {
    /// A text setting; `isAllowed` decides which texts are allowed.
    static func text(
        _ flag: String, _ environment: String, default value: String, allowed: String, _ summary: String,
        isAllowed: @escaping @Sendable (String) -> Bool = { _ in true }
    ) -> Setting {
        Setting(
            flag: flag, environment: environment, defaultText: "`\(value)`", allowed: allowed, summary: summary,
            defaultValue: { value }, parse: { isAllowed($0) ? $0 : nil })
    }
}

extension Setting where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
    /// A setting that takes one of `Value`'s cases by name.
    static func choice(_ flag: String, _ environment: String, default value: Value, _ summary: String) -> Setting {
        Setting(
            flag: flag, environment: environment, defaultText: "`\(value.rawValue)`",
            allowed: "one of " + Value.allCases.map(\.rawValue).joined(separator: ", "), summary: summary,
            defaultValue: { value }, parse: { Value(rawValue: $0) })
    }
}
