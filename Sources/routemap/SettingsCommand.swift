import ArgumentParser

/// `routemap settings`: prints every setting as the README's Markdown table (a test checks
/// that the README holds exactly this table).
struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Print every setting of serve (flag, environment variable, default, allowed values) as a Markdown table.")

    func run() {
        print(Settings.markdownTable)
    }
}
