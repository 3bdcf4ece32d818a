import ArgumentParser
import RoutemapAPI

/// `routemap routes`: prints the route registry as a tree; `routemap routes check` lists its
/// problems and exits 1 when there are any.
struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Print the route registry as a tree.",
        subcommands: [Tree.self, Check.self],
        defaultSubcommand: Tree.self)

    struct Tree: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "tree", abstract: "Print the route registry as a tree.")

        func run() {
            print(POSRegistry.treeText)
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check", abstract: "Check the route registry; exit 1 and list each problem if it has any.")

        func run() throws {
            let problems = POSRegistry.problems
            guard !problems.isEmpty else {
                print("routemap: the route registry has no problems")
                return
            }
            for problem in problems { print(problem) }
            throw ExitCode(1)
        }
    }
}
