import Foundation
import RoutemapAPI
import RoutemapHTTP
import RoutemapJSON
import RoutemapNavigation

/// The trivia endpoints: start a game, answer its questions, read it back. Each change answers
/// with the data and the steps that show it, computed by the engine's walks. A game belongs to
/// the device that started it; any other device gets 404.
///
/// Their steps assume the client shows what the screen that sent the request shows: the
/// landing for a start (`push game` or `push noData`), the game for an answer (`replace game`,
/// and `push results` after the last one); like the bill endpoints, they carry no `stack`.
///
/// Both changes take an optional `Idempotency-Key`, as the bill endpoints do: the answer is
/// recorded with the effect, and a retry gets it again instead of a second game or a
/// `409 question_already_answered`.
struct GamesController {
    let app: TriviaApp

    var games: TriviaGames { app.games }
    var navigator: Navigator<TriviaScreenContext> { app.navigator }

    func register(on router: inout Router<APIContext>) {
        router.device(.POST, "/v1/trivia/games", start)
        router.device(.GET, "/v1/trivia/games/{gameId}", reading: app, show)
        router.device(.POST, "/v1/trivia/games/{gameId}/answers", answer)
    }

    /// `{difficulty, category?}`: 201 with the game and `push game`, or, when no question
    /// matches, 200 with why and `push noData` (nothing is saved then).
    @Sendable func start(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [TriviaRoute.game, TriviaRoute.noData], [.push])
        let body = try RequestBody(request, allowed: ["difficulty", "category"])
        let difficulty = try body.choice("difficulty", of: Difficulty.self)
        let categoryText = try body.optionalText("category", maxCharacters: 64) ?? TriviaInput.anyCategory
        let category = categoryText == TriviaInput.anyCategory ? nil : categoryText
        // `category: "any"` is the same as leaving it out, also to an Idempotency-Key (as `null` is).
        let keyed = category == nil ? body.without("category") : body
        return try await app.idempotency.perform(request, body: keyed, device: device) { key in
            try await games.start(device: device.id, difficulty: difficulty, category: category, idempotency: key)
        } answer: { started in
            try startedResponse(started, device, client)
        }
    }

    /// The answer to a start: 201 with the game and `push game`, or 200 with `noData` and `push noData`.
    func startedResponse(_ started: TriviaGames.Started, _ device: AuthenticatedDevice, _ client: ClientCapabilities) throws -> Response {
        switch started {
        case .game(let game):
            let steps = try walk(to: TriviaRoute.game, [TriviaInput.gameId: game.id], game, device, client)
            return .json(
                ["game": TriviaJSON.game(game), "navigation": steps.json], status: .created,
                headers: ["Location": "/v1/trivia/games/\(game.id)"])
        case .noQuestions(let difficulty, let category):
            let categoryId = category?.id ?? TriviaInput.anyCategory
            let filter = [TriviaInput.difficulty: difficulty.rawValue, TriviaInput.category: categoryId]
            let steps = try walk(to: TriviaRoute.noData, filter, nil, device, client)
            let reason = TriviaNavigation.noQuestionsReason(difficulty, category)
            return .json([
                "noData": ["difficulty": .string(difficulty.rawValue), "category": .string(categoryId), "reason": .string(reason)],
                "navigation": steps.json,
            ])
        }
    }

    /// The game as committed, with the answers given so far (a client that lost an answer reads it back).
    @Sendable func show(_ request: Request, _ device: AuthenticatedDevice) throws -> Response {
        .json(TriviaJSON.game(try games.game(id: try request.parameter("gameId"), device: device.id)))
    }

    /// `{questionId, answer}`: the verdict, the game, and `replace game` with the next question,
    /// or with the finished game and `push results` after the last one.
    @Sendable func answer(_ request: Request, _ device: AuthenticatedDevice) async throws -> Response {
        let client = try supported(request, [TriviaRoute.game, TriviaRoute.results], [.replace, .push])
        let body = try RequestBody(request, allowed: ["questionId", "answer"])
        let questionId = try body.text("questionId", maxCharacters: 100)
        let answer = try body.text("answer", maxCharacters: 200)
        let gameId = try request.parameter("gameId")
        return try await app.idempotency.perform(request, body: body, device: device) { key in
            try await games.answer(gameId: gameId, device: device.id, questionId: questionId, answer: answer, idempotency: key)
        } answer: { answered in
            try answeredResponse(answered, device, client)
        }
    }

    /// The answer to an answer: the verdict, the game, and `replace game`; after the last one,
    /// also `push results`. The game screen is replaced either way: under the results it shows
    /// the finished game, not a last question that still offers its choices (back from the
    /// results pops to it).
    func answeredResponse(_ answered: TriviaGames.Answered, _ device: AuthenticatedDevice, _ client: ClientCapabilities) throws -> Response {
        let game = answered.game
        let inputs = [TriviaInput.gameId: game.id]
        var steps = [try navigator.replace(TriviaRoute.game, inputs: inputs, context: app.context(device, game), client: client)]
        if game.isFinished {
            steps += try walk(
                from: [StackEntry(TriviaRoute.trivia), StackEntry(TriviaRoute.game, inputs: inputs)], to: TriviaRoute.results, inputs, game, device,
                client)
        }
        return .json([
            "result": TriviaJSON.answered(answered.asked), "game": TriviaJSON.game(game), "navigation": steps.json,
        ])
    }

    // MARK: Helpers

    /// The client's capabilities, checked to cover `routes` and `operations`.
    func supported(_ request: Request, _ routes: [RouteID], _ operations: Set<StepOperation>) throws -> ClientCapabilities {
        try request.clientCapabilities(verifiedBy: navigator, canShow: routes, performing: operations)
    }

    /// The engine's steps from `stack` (the landing with its options, by default) to `target`.
    func walk(
        from stack: [StackEntry] = [StackEntry(TriviaRoute.trivia), StackEntry(TriviaRoute.landing)], to target: RouteID, _ inputs: RouteInputs,
        _ game: Game?, _ device: AuthenticatedDevice, _ client: ClientCapabilities
    ) throws -> [Step] {
        try navigator.navigate(
            NavigationRequest(from: NavigationStack(stack), target: target, input: inputs), context: app.context(device, game), client: client
        ).steps
    }
}
