import RoutemapNavigation

/// The POS route registry as the executable sees it: for `routemap routes` and the start-up check.
public enum POSRegistry {
    /// What is wrong with the registry; empty when the server may start.
    public static var problems: [RegistryProblem] { POSNavigation.registry.problems() }

    /// The registry as an indented tree.
    public static var treeText: String { POSNavigation.registry.treeText() }
}

/// The server refuses to start on a broken route registry; this carries what is wrong.
public struct RegistryProblems: Error, CustomStringConvertible {
    public let problems: [RegistryProblem]

    public var description: String {
        "the route registry has \(problems.count) problem(s):\n" + problems.map { "  \($0)" }.joined(separator: "\n")
    }
}
