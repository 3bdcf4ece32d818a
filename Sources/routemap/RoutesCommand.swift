import ArgumentParser

/// `routemap routes`: prints an app's route registry as a tree; `routemap routes check` lists its
/// problems and exits 1 when there are any. `--app NAME` picks the app (the first listed in
/// `Apps.all` by default).
struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Print an app's route registry as a tree.",
        subcommands: [Tree.self, Check.self],
        defaultSubcommand: Tree.self)

    /// `--app NAME`, shared by both subcommands.
    struct AppOption: ParsableArguments {
        @Option(name: .customLong("app"), help: "The app: \(Apps.all.map(\.name).joined(separator: ", ")) (default: \(Apps.all[0].name)).")
        var name: String?

        func entry() throws -> AppEntry {
            guard let name else { return Apps.all[0] }
            guard let entry = Apps.named(name) else {
                throw ValidationError("no app '\(name)'; the apps are \(Apps.all.map(\.name).joined(separator: ", ")).")
            }
            return entry
        }
    }

    struct Tree: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "tree", abstract: "Print an app's route registry as a tree.")

        @OptionGroup var app: AppOption

        func run() throws {
            print(try app.entry().tree())
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check", abstract: "Check an app's route registry; exit 1 and list each problem if it has any.")

        @OptionGroup var app: AppOption

        func run() throws {
            let entry = try app.entry()
            let problems = entry.problems()
            guard !problems.isEmpty else {
                print("routemap: the route registry of '\(entry.name)' has no problems")
                return
            }
            for problem in problems { print(problem) }
            throw ExitCode(1)
        }
    }
}
