import RoutemapAPI
import RoutemapHTTP
import RoutemapNavigation

/// The trivia game: a device picks a difficulty (a popover) and a category (a sheet) on the
/// landing, plays a game of questions pushed one after another, and sees its results. The
/// server owns the flow, as a coordinator would: it fetches the questions and shows the game,
/// or the no-data screen when nothing matches. Registry: ``TriviaNavigation/registry``; data:
/// a ``TriviaStore``.
package struct TriviaApp: App {
    package static let name = "trivia"
    package static var registry: RouteRegistry<TriviaScreenContext> { TriviaNavigation.registry }

    let games: TriviaGames
    /// Idempotency keys of the two changes (start, answer): the server's, shared by every app.
    let idempotency: Idempotency
    package let navigator: Navigator<TriviaScreenContext>

    /// Reads the question bank from `store` (it changes only with a migration).
    package init(store: any TriviaStore, idempotency: Idempotency) throws {
        self.idempotency = idempotency
        games = TriviaGames(store: store, bank: try QuestionBank(store: store))
        navigator = TriviaNavigation.makeNavigator()
    }

    package func register(on router: inout Router<APIContext>) {
        GamesController(app: self).register(on: &router)
    }

    package func screenContext(for device: AuthenticatedDevice) throws -> TriviaScreenContext {
        context(device, nil)
    }

    /// The landing with the options as nobody changed them: any difficulty, any category.
    package func launch(_ request: Request, _ device: AuthenticatedDevice) throws -> Router<APIContext>.Reply {
        let client = try request.clientCapabilities()
        return .now(.json(try navigator.launch(inputs: [:], context: context(device, nil), client: client).json))
    }

    package func checkHealth() throws {
        try games.store.ping()
    }

    package var readsAreImmediate: Bool { games.store.readsAreImmediate }

    package func reading<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await games.store.reading(body)
    }

    /// The payload builders' context for one request of `device`, holding the game it already has.
    func context(_ device: AuthenticatedDevice, _ game: Game?) -> TriviaScreenContext {
        TriviaScreenContext(games: games, deviceId: device.id, known: game)
    }
}
