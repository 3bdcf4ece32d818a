import RoutemapNavigation
import Testing

/// One row of a walk table: from a stack, a mode and a target, the steps (`"op route"`) and
/// the stack the answer must carry.
struct WalkRow: Sendable, CustomTestStringConvertible {
    var from: [String]
    var mode: NavigationMode
    var to: RouteID?
    var input: RouteInputs
    var steps: [String]
    var stack: [String]

    init(_ from: [String], _ mode: NavigationMode = .to, _ to: RouteID? = nil, input: RouteInputs = [:], steps: [String], stack: [String]) {
        self.from = from
        self.mode = mode
        self.to = to
        self.input = input
        self.steps = steps
        self.stack = stack
    }

    var testDescription: String { "\(mode.rawValue) \(to?.rawValue ?? "") from [\(from.joined(separator: ","))]" }

    /// Navigates and checks the row; the answer must also satisfy the screen model.
    func check(_ navigator: Navigator<String>, registry: RouteRegistry<String>) throws {
        let navigation = try navigator.navigate(from: from, mode, to, input: input)
        #expect(describe(navigation.steps) == steps)
        #expect(strings(navigation.stack) == stack)
        var model = ScreenModel(registry: registry, stack: NavigationStack(strings: from).entries)
        #expect(throws: Never.self) { try model.follow(navigation, mode: mode, target: to) }
    }
}
