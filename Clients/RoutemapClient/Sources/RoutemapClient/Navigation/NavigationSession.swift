/// Follows the server's navigation for one app: it holds the stack and the screens on display,
/// performs each answer's steps in order through the app's `NavigationPerformer`, and sends its
/// stack whenever it asks to go somewhere.
///
/// - Before performing an answer it applies the steps to a copy of its state: when a step does
///   not fit what is on screen, or the stack they lead to is not the answer's `stack`, the app and
///   the server disagree. The session first reads the registry again (`GET /v1/routes`: a deploy
///   may have added or moved a route since `start()`); when it changed, it tries the answer once
///   more on the new one. If the answer still does not fit, the session resyncs: it asks
///   `GET /v1/launch` and performs that (which starts with `setRoot`).
/// - When launch's steps do not fit either, even on a registry read again, the session throws
///   `StepDoesNotFit` and performs nothing; its state stays as it was, and the next navigation
///   tries again (reading the registry again first).
/// - When the performer fails a step, the session stops there and throws `StepFailed`; its state
///   is what the steps before it made.
/// - A screen action the server performed is never reported as a failure: `perform(_:)` returns
///   its `ActionResult`, and a failure while following its navigation (a resync that could not
///   read launch, a failed step) is the result's `navigationFailure`.
/// - One navigation at a time: a call made while another runs waits for it.
/// - Cancelling the calling task stops a call before its request is sent (while it waits its
///   turn, too): it throws `CancellationError`, and nothing is sent. Once an answer is in, its
///   steps are performed to the end whatever happens to the task (the performer is not
///   cancelled), so a cancellation never leaves half of an answer on screen.
public actor NavigationSession {
    public let client: APIClient
    private let performer: any NavigationPerformer
    private var model: NavigationModel?
    /// Whether a navigation holds the turn (see `serially`).
    private var busy = false
    /// The calls waiting for the turn, first come first served, each with its number.
    private var waiting: [(number: Int, turn: CheckedContinuation<Void, any Error>)] = []
    private var waitersSoFar = 0

    public init(client: APIClient, performer: any NavigationPerformer) {
        self.client = client
        self.performer = performer
    }

    /// The stack from the root to the top screen, as the session sends it in `from`.
    public var stack: [StackEntry] { model?.stack ?? [] }

    /// The screens on display (those of the top screen: not covered by a pushed or presented
    /// one), the most recently shown first. Their `inputs` fill the `{NAME}` placeholders of actions.
    public var screensOnDisplay: [DisplayedScreen] { model?.onDisplay ?? [] }

    /// The screen the app shows for `route`, covered or not: the one on display if there is
    /// one, else the most recently shown.
    public func screen(of route: RouteID) -> DisplayedScreen? {
        screensOnDisplay.first { $0.route == route } ?? model?.shown.last { $0.route == route }
    }

    // MARK: Errors and outcomes

    /// The performer failed step `index` (0-based) of the list; the steps after it were not performed.
    public struct StepFailed: Error, Sendable {
        public var index: Int
        public var step: Step
        public var error: any Error
    }

    /// A step the session cannot take: it does not fit the session's state even on the registry
    /// read again (a launch whose steps name a route the server's registry does not have, say),
    /// or the performer cannot be asked to perform it (an op this client does not know, a step
    /// without the screen it shows). Thrown by `launch()` and by navigations that resync through
    /// launch (nothing performed, the state unchanged), by `noteUserNavigation(_:)` (the state
    /// unchanged), and as the `error` of `StepFailed`.
    public struct StepDoesNotFit: Error, Sendable, CustomStringConvertible {
        /// The first step that does not fit.
        public var step: Step
        /// Why, in words.
        public var reason: String

        public init(step: Step, reason: String) {
            self.step = step
            self.reason = reason
        }

        public var description: String { reason }
    }

    public enum SessionError: Error, Sendable, Equatable {
        /// `start()` has not run: the session does not know the registry yet.
        case notStarted
        /// No screen of this route is on display.
        case screenNotOnDisplay(RouteID)
        /// The screen does not offer an action of this name.
        case actionNotOffered(action: String, route: RouteID)
    }

    /// What following one answer did.
    public struct Outcome: Sendable {
        /// The steps performed, in order (the launch's, after a resync).
        public var performed: [Step]
        /// Why the session resynced through launch instead of performing the answer; nil when it did not.
        public var resyncReason: String?
    }

    /// A screen action's answer and what its navigation did. `perform(_:)` returns one whenever
    /// the server performed the action, even when following its navigation failed.
    public struct ActionResult: Sendable {
        /// The server's answer: the action happened (a game started, a payment taken).
        public var answer: ActionAnswer
        /// What following the answer's navigation did. Nil when the answer had no navigation,
        /// or when following it failed (`navigationFailure`).
        public var outcome: Outcome?
        /// Why the answer's navigation was not followed to its end, though the action was
        /// performed: the registry or launch could not be read for a resync (a `Problem` such
        /// as `too_many_requests`, a lost connection), launch's steps did not fit
        /// (`StepDoesNotFit`), the performer failed a step (`StepFailed`: the steps before it
        /// were performed), or the navigation did not decode. The screen then does not show the
        /// action's effect: call `launch()` (or navigate) to show it. Nil when it was followed.
        public var navigationFailure: (any Error)?
    }

    // MARK: Navigating

    /// Reads the registry (`GET /v1/routes`), then builds the initial UI (`GET /v1/launch`).
    @discardableResult
    public func start() async throws -> Outcome {
        try await serially {
            model = NavigationModel(routes: RouteMap(tree: try await client.routes()))
            return try await followLaunch(reason: nil, registryRead: true)
        }
    }

    /// Rebuilds the whole UI from `GET /v1/launch`. When its steps do not fit, the session reads
    /// the registry again and tries once more; then it throws `StepDoesNotFit`.
    @discardableResult
    public func launch() async throws -> Outcome {
        try await serially { try await followLaunch(reason: nil, registryRead: false) }
    }

    /// Walks to `route` (`POST /v1/navigate`, mode `to`).
    @discardableResult
    public func navigate(to route: RouteID, input: [String: String]? = nil) async throws -> Outcome {
        try await walk(to: route, mode: .to, input: input)
    }

    /// One hop up (`POST /v1/navigate`, mode `parent`).
    @discardableResult
    public func navigateUp() async throws -> Outcome {
        try await walk(to: nil, mode: .parent, input: nil)
    }

    /// Shows `route` over the top of the stack as a subroutine (`POST /v1/navigate`, mode `sub`).
    @discardableResult
    public func openSub(_ route: RouteID, input: [String: String]? = nil) async throws -> Outcome {
        try await walk(to: route, mode: .sub, input: input)
    }

    /// Opens a deep link (`GET /v1/resolve`) from the current stack.
    @discardableResult
    public func open(url: String) async throws -> Outcome {
        try await serially {
            let model = try started()
            return try await follow(try await client.resolve(url: url, from: model.stack))
        }
    }

    private func walk(to route: RouteID?, mode: NavigationMode, input: [String: String]?) async throws -> Outcome {
        try await serially {
            let model = try started()
            return try await follow(try await client.navigate(NavigateRequest(from: .stack(model.stack), to: route, mode: mode, input: input)))
        }
    }

    /// Performs the navigation of an answer the app got itself (e.g. from `APIClient.addItem`).
    @discardableResult
    public func follow(answer: some NavigatingAnswer) async throws -> Outcome {
        try await serially { try await follow(answer) }
    }

    /// Takes a step the user made without the server (a tab tapped, the system back button):
    /// the session's state changes as the step says; the performer is not called. A step without
    /// a `screen` shows nothing new: the route keeps the screen the app shows for it (a tab the
    /// user taps again, what it showed when it was left), and its stack entry takes that
    /// screen's inputs. When the step does not fit, the session reads the registry again and
    /// tries once more; then it throws `StepDoesNotFit`, and nothing changes.
    public func noteUserNavigation(_ step: Step) async throws {
        try await serially {
            var trial = try self.trial([step])
            if case .doesNotFit = trial, try await rereadRegistry() { trial = try self.trial([step]) }
            switch trial {
            case .fits(let model): self.model = model
            case .doesNotFit(let misfit): throw misfit
            }
        }
    }

    // MARK: Screen actions

    /// Fills the action `name` of the screen of `route` on display, for one user intent
    /// (README, "Screen actions"). Send it with `perform(_:)`; to retry that intent, send the
    /// same request again.
    public func prepare(
        action name: String, on route: RouteID, item: JSONValue? = nil, values: [String: JSONValue] = [:], intent: UserIntent = UserIntent()
    ) throws -> ActionRequest {
        _ = try started()
        guard let shown = screensOnDisplay.first(where: { $0.route == route }) else { throw SessionError.screenNotOnDisplay(route) }
        guard let action = shown.screen.action(named: name) else { throw SessionError.actionNotOffered(action: name, route: route) }
        let inputs = screensOnDisplay.map(\.screen.inputs).filter { !$0.isEmpty }
        return try ActionRequest(
            action: action, values: ActionRequest.Values(inputs: inputs, item: item, entered: values, payload: shown.screen.payload), intent: intent,
            route: route)
    }

    /// Fills the action a declarative screen's `button` sends, for one user intent: its `item`
    /// fills `{item.FIELD}`, its `values` and then `values` (what the user entered for the
    /// ones it does not supply) fill `{value.NAME}` (docs/navigation.md, "Declarative screens").
    public func prepare(
        _ button: Component.Button, on route: RouteID, values: [String: JSONValue] = [:], intent: UserIntent = UserIntent()
    ) throws -> ActionRequest {
        let item = button.item.map(JSONValue.object)
        return try prepare(action: button.action, on: route, item: item, values: values.merging(button.values ?? [:]) { _, supplied in supplied }, intent: intent)
    }

    /// Sends a filled action and follows the navigation of its answer. A problem+json answer is
    /// thrown as a `Problem`, and nothing on screen changes. Once the server has performed the
    /// action, this returns its result: a failure while following the answer's navigation
    /// (a resync that could not read launch, a step the performer failed) is the result's
    /// `navigationFailure`, never thrown, so the answer (the game started, the payment) is not lost.
    ///
    /// A walk (`POST` to this app's `navigate`, as `chooseDifficulty` or `showBills` are) is sent
    /// from where the app is: its `from` is the session's stack when it is sent, whatever stack
    /// the template names (docs/navigation.md: a client sends its own stack as `from`). When the
    /// action's screen is on display but not listed on the stack (a column beside the focus,
    /// after a back gesture), the session first gives it the focus, as the user's tap in it
    /// does, so the walk starts from what that screen shows.
    @discardableResult
    public func perform(_ request: ActionRequest) async throws -> ActionResult {
        try await serially {
            _ = try started()
            let answer = try await client.send(try fromHere(request))
            // The server performed the action: from here on, failures are the result's.
            do {
                guard let navigation = try answer.navigation() else { return ActionResult(answer: answer, outcome: nil) }
                return ActionResult(answer: answer, outcome: try await follow(navigation))
            } catch {
                return ActionResult(answer: answer, outcome: nil, navigationFailure: error)
            }
        }
    }

    /// `request`, when it is a walk of this app, with the session's stack as its `from` (after
    /// the focus moved to the action's screen, when that screen is on display but not listed).
    private func fromHere(_ request: ActionRequest) throws -> ActionRequest {
        guard isWalk(request), case .object(var body) = request.body else { return request }
        if let route = request.route, let gestures = model?.focusGestures(on: route), !gestures.isEmpty,
            case .fits(let focused) = try trial(gestures)
        {
            model = focused
        }
        body["from"] = try JSONValue(encoding: stack)
        var walk = request
        walk.body = .object(body)
        return walk
    }

    /// Whether `request` is a `POST` to this app's `navigate` (`/v1/apps/{app}/navigate`, or
    /// `/v1/navigate`, where the server also serves its first app's) with an object body.
    /// A client of the first app (no `app`) does not know its name, and its screens' walks name
    /// it (`/v1/apps/pos/navigate`): it takes any app's `navigate`, since a screen's actions
    /// walk only in the app that showed it.
    private func isWalk(_ request: ActionRequest) -> Bool {
        guard request.method == .post, case .object = request.body else { return false }
        if request.path == "/v1/navigate" { return true }
        guard let app = client.app else { return Self.isAnyAppsNavigate(request.path) }
        return request.path == "/v1/apps/\(APIClient.segment(app))/navigate"
    }

    /// Whether `path` is `/v1/apps/{some app}/navigate`.
    private static func isAnyAppsNavigate(_ path: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return segments.count == 5 && segments[0].isEmpty && segments[1] == "v1" && segments[2] == "apps" && !segments[3].isEmpty
            && segments[4] == "navigate"
    }

    // MARK: Following

    private func started() throws -> NavigationModel {
        guard let model else { throw SessionError.notStarted }
        return model
    }

    /// Performs `answer`'s steps if they fit the state; else reads the registry again and, when
    /// it changed, tries once more; else resyncs through launch.
    private func follow(_ answer: some NavigatingAnswer) async throws -> Outcome {
        var disagreement = try self.disagreement(with: answer)
        if disagreement != nil, try await rereadRegistry() { disagreement = try self.disagreement(with: answer) }
        if let disagreement { return try await followLaunch(reason: disagreement, registryRead: true) }
        return Outcome(performed: try await perform(answer.navigation), resyncReason: nil)
    }

    /// Why `answer` does not fit the state, or nil when it does.
    private func disagreement(with answer: some NavigatingAnswer) throws -> String? {
        switch try trial(answer.navigation) {
        case .doesNotFit(let misfit):
            return "the answer does not fit the screen: \(misfit.reason)"
        case .fits(let trial):
            guard let expected = answer.stack, expected != trial.stack else { return nil }
            return "the steps lead to \(trial.stack), the answer's stack is \(expected)"
        }
    }

    /// What `steps` make of the state, applied in order to a copy of it.
    private enum Trial {
        /// They all fit: the state they lead to.
        case fits(NavigationModel)
        /// The first that does not, and why.
        case doesNotFit(StepDoesNotFit)
    }

    private func trial(_ steps: [Step]) throws -> Trial {
        var trial = try started()
        for step in steps {
            do {
                try trial.apply(step)
            } catch let violation as NavigationModel.Violation {
                return .doesNotFit(StepDoesNotFit(step: step, reason: violation.description))
            }
        }
        return .fits(trial)
    }

    /// Reads the registry again (`GET /v1/routes`); when it changed, the state places routes by
    /// the new one (the stack and the screens stay). Whether it changed.
    private func rereadRegistry() async throws -> Bool {
        let routes = RouteMap(tree: try await client.routes())
        guard routes != model?.routes else { return false }
        model?.routes = routes
        return true
    }

    /// Rebuilds the UI from `GET /v1/launch`. Its steps start from nothing (`setRoot`); when
    /// they do not lead to its `stack`, the session takes the server's stack as it is. When they
    /// do not fit the state's registry, the registry is read again (unless `registryRead`: this
    /// navigation just did) and they are tried once more; then `StepDoesNotFit` is thrown.
    private func followLaunch(reason: String?, registryRead: Bool) async throws -> Outcome {
        let answer = try await client.launch()
        var trial = try self.trial(answer.navigation)
        if case .doesNotFit = trial, !registryRead, try await rereadRegistry() { trial = try self.trial(answer.navigation) }
        if case .doesNotFit(var misfit) = trial {
            misfit.reason = "launch does not fit the registry: \(misfit.reason)" + (reason.map { " (resyncing because \($0))" } ?? "")
            throw misfit
        }
        let performed = try await perform(answer.navigation)
        if let expected = answer.stack, expected != model?.stack { model?.adopt(stack: expected) }
        return Outcome(performed: performed, resyncReason: reason)
    }

    /// Performs `steps` in order through the performer, updating the state after each: all of
    /// them, even when the calling task is cancelled meanwhile (in a task of its own, which the
    /// caller's cancellation does not reach): the answer is in, and the server's state is what
    /// it shows.
    private func perform(_ steps: [Step]) async throws -> [Step] {
        try await Task { try await self.performAll(steps) }.value
    }

    private func performAll(_ steps: [Step]) async throws -> [Step] {
        for (index, step) in steps.enumerated() {
            do {
                try await perform(step)
            } catch {
                throw StepFailed(index: index, step: step, error: error)
            }
            do {
                try model?.apply(step)
            } catch let violation as NavigationModel.Violation {  // not expected: the steps were tried on a copy first
                throw StepDoesNotFit(step: step, reason: violation.description)
            }
        }
        return steps
    }

    private func perform(_ step: Step) async throws {
        let route = step.route
        switch step.op {
        case .setRoot: try await performer.setRoot(route, screen: try screen(of: step), tabs: step.tabs ?? [])
        case .selectTab: try await performer.selectTab(route, screen: try screen(of: step), tabs: step.tabs, animated: step.animated)
        case .embed:
            try await performer.embed(route, slot: step.slot ?? "", screen: try screen(of: step), tabs: step.tabs, animated: step.animated)
        case .present:
            let presentation = step.presentation ?? PresentationOptions(style: .modal, inNavigationContainer: false)
            try await performer.present(route, presentation: presentation, screen: try screen(of: step), tabs: step.tabs, animated: step.animated)
        case .dismiss: try await performer.dismiss(route, animated: step.animated)
        case .push: try await performer.push(route, screen: try screen(of: step), tabs: step.tabs, animated: step.animated)
        case .pop: try await performer.pop(route, animated: step.animated)
        case .popTo: try await performer.popTo(route, animated: step.animated)
        case .replace: try await performer.replace(route, screen: try screen(of: step))
        case .refresh: try await performer.refresh(route, screen: try screen(of: step))
        case .unknown: throw StepDoesNotFit(step: step, reason: "\(step.op) \(route): an operation this client does not know")
        }
    }

    private func screen(of step: Step) throws -> Screen {
        guard let screen = step.screen else { throw StepDoesNotFit(step: step, reason: "\(step.op) \(step.route): the step has no screen") }
        return screen
    }

    // MARK: One at a time

    /// Runs `body` when no other navigation runs, waiting for the turn first when one does.
    /// A call cancelled before its turn comes (or as it comes) throws `CancellationError` without
    /// running `body`, and hands the turn on.
    private func serially<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try Task.checkCancellation()
        if busy {
            try await waitForTurn()  // throws without the turn: nothing to hand on
        } else {
            busy = true
        }
        defer { handTurnOn() }
        try Task.checkCancellation()
        return try await body()
    }

    /// Waits until `handTurnOn` hands this call the turn, or throws `CancellationError` when the
    /// task is cancelled first (the call leaves the queue without the turn).
    private func waitForTurn() async throws {
        waitersSoFar += 1
        let number = waitersSoFar
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { waiting.append((number, $0)) }
        } onCancel: {
            Task { await self.withdraw(number) }
        }
    }

    /// Takes the waiting call `number` out of the queue with `CancellationError`; nothing when it
    /// is not waiting (its turn came first: it sees the cancellation itself and hands the turn on).
    private func withdraw(_ number: Int) {
        guard let index = waiting.firstIndex(where: { $0.number == number }) else { return }
        waiting.remove(at: index).turn.resume(throwing: CancellationError())
    }

    /// Gives the turn to the first waiting call, or frees it.
    private func handTurnOn() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().turn.resume() }
    }
}
