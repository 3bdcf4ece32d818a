import RoutemapAPI
import RoutemapJSON
import RoutemapNavigation

/// The trivia app's route registry: every screen, how each is shown, and the builder of its
/// payload, declared once, here. `routemap routes --app trivia` prints it; docs/navigation.md
/// explains the fields.
///
///     trivia                  root: a navigation stack, slot content
///       landing               embed content; slot options
///         options             embed options; difficulty, category (caller; derived mixed, any)
///           difficultyMenu    present popover at the options' chooseDifficulty control
///           categoryPicker    present sheet
///       game                  push; gameId (caller)               trivia://games/{gameId}
///         results             push; guarded: the game is finished  trivia://games/{gameId}/results
///       noData                push; guarded: nothing matches
///
/// `options` is also opened by `trivia://play/{difficulty}`.
package enum TriviaNavigation {
    package static func makeNavigator() -> Navigator<TriviaScreenContext> {
        Navigator(registry: registry) { name, _ in
            // The defaults of a landing nobody has changed: any difficulty, any category.
            switch name {
            case TriviaInput.difficulty: Difficulty.mixed.rawValue
            case TriviaInput.category: TriviaInput.anyCategory
            default: nil
            }
        }
    }

    static let filter = [TriviaInput.difficulty, TriviaInput.category]

    package static let registry = RouteRegistry<TriviaScreenContext> {
        RouteNode(TriviaRoute.trivia, .root, screenType: "navigationStack", title: "Trivia", slots: ["content"]) {
            RouteNode(
                TriviaRoute.landing, .embed(slot: "content"), screenType: "landing", title: "Trivia", offersDeclarative: true,
                slots: ["options"], payload: landingScreen
            ) {
                RouteNode(
                    TriviaRoute.options, .embed(slot: "options"), screenType: "triviaOptions", title: "Options", offersDeclarative: true,
                    requires: filter, callerSupplied: filter, provides: filter, deepLinks: ["trivia://play/{difficulty}"],
                    payload: optionsScreen
                ) {
                    RouteNode(
                        TriviaRoute.difficultyMenu, .present(PresentationOptions(style: .popover, anchor: "chooseDifficulty")),
                        screenType: "difficultyMenu", title: "Difficulty", renderer: .declarative, requires: filter,
                        payload: difficultyMenuScreen)
                    RouteNode(
                        TriviaRoute.categoryPicker, .present(PresentationOptions(style: .sheet)), screenType: "categoryPicker",
                        title: "Category", renderer: .declarative, requires: filter, payload: categoryPickerScreen)
                }
            }
            RouteNode(
                TriviaRoute.game, .push, screenType: "triviaGame", title: "Game", offersDeclarative: true, requires: [TriviaInput.gameId],
                callerSupplied: [TriviaInput.gameId], provides: [TriviaInput.gameId], deepLinks: ["trivia://games/{gameId}"],
                payload: gameScreen
            ) {
                RouteNode(
                    TriviaRoute.results, .push, screenType: "triviaResults", title: "Results", offersDeclarative: true,
                    requires: [TriviaInput.gameId], provides: [TriviaInput.gameId], deepLinks: ["trivia://games/{gameId}/results"],
                    guardedBy: finishedGame, payload: resultsScreen)
            }
            RouteNode(
                TriviaRoute.noData, .push, screenType: "noData", title: "No questions", renderer: .declarative, requires: filter,
                callerSupplied: filter, guardedBy: nothingMatches, payload: noDataScreen)
        }
    }

    /// Where the navigation actions of trivia screens send their walks.
    static let navigatePath = TriviaApp.navigationPrefix + "/navigate"

    /// A stack entry of an action's `from`, with inputs the client fills from the screens on
    /// display (`{difficulty}`) or from the screen's own payload.
    static func entry(_ route: RouteID, _ inputs: [String: String] = [:]) -> JSON {
        ["route": .string(route.rawValue), "inputs": .object(JSONObject(inputs.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))]
    }

    /// The options as the client shows them: `{difficulty}` and `{category}` from its inputs.
    static let optionsEntry = entry(TriviaRoute.options, [TriviaInput.difficulty: "{difficulty}", TriviaInput.category: "{category}"])

    // MARK: Landing

    @Sendable static func landingScreen(inputs: RouteInputs, context: TriviaScreenContext) throws -> ScreenContent {
        let count = context.bank.questions.count
        let blurb = "\(TriviaGames.questionsPerGame) questions a game, from \(count) in \(context.bank.categories.count) categories."
        return ScreenContent(
            payload: ["title": "Trivia", "blurb": .string(blurb), "questionCount": .int(Int64(count))],
            components: { [.text("Trivia", style: .headline), .text(blurb, style: .body)] })
    }

    // MARK: Options, and the two ways to change them

    @Sendable static func optionsScreen(inputs: RouteInputs, context: TriviaScreenContext) throws -> ScreenContent {
        let difficulty = try context.difficulty(try required(TriviaInput.difficulty, in: inputs))
        let category = try context.category(try required(TriviaInput.category, in: inputs))
        let categoryName = category?.name ?? "Any category"
        return ScreenContent(
            payload: [
                "difficulty": .string(difficulty.rawValue), "difficultyName": .string(difficulty.name),
                "category": .string(category?.id ?? TriviaInput.anyCategory), "categoryName": .string(categoryName),
            ],
            actions: optionsActions,
            inputs: [TriviaInput.difficulty: difficulty.rawValue, TriviaInput.category: category?.id ?? TriviaInput.anyCategory],
            components: {
                [
                    .row(title: "Difficulty", value: difficulty.name),
                    .button(title: "Change difficulty", action: "chooseDifficulty", style: .secondary),
                    .row(title: "Category", value: categoryName),
                    .button(title: "Change category", action: "chooseCategory", style: .secondary),
                    .divider,
                    .button(title: "Play", action: "play", style: .primary),
                ]
            })
    }

    private static let optionsActions = [
        ScreenAction(
            name: "chooseDifficulty", method: "POST", path: navigatePath,
            body: ["from": [entry(TriviaRoute.trivia), entry(TriviaRoute.landing), optionsEntry], "to": .string(TriviaRoute.difficultyMenu.rawValue)]),
        ScreenAction(
            name: "chooseCategory", method: "POST", path: navigatePath,
            body: ["from": [entry(TriviaRoute.trivia), entry(TriviaRoute.landing), optionsEntry], "to": .string(TriviaRoute.categoryPicker.rawValue)]),
        ScreenAction(
            name: "play", method: "POST", path: "/v1/trivia/games", body: ["difficulty": "{difficulty}", "category": "{category}"], headers: keyed),
    ]

    /// "Mixed", "Easy", "Medium", "Hard": choosing one dismisses the popover and replaces the
    /// options with the new difficulty (the walk to `options` does both).
    @Sendable static func difficultyMenuScreen(inputs: RouteInputs, context: TriviaScreenContext) throws -> ScreenContent {
        let current = try context.difficulty(try required(TriviaInput.difficulty, in: inputs))
        let choices = Difficulty.allCases.map { level -> JSON in
            ["id": .string(level.rawValue), "name": .string(level.name), "selected": .bool(level == current)]
        }
        return ScreenContent(
            payload: ["difficulty": .string(current.rawValue), "choices": .array(choices)], actions: [difficultyChoice],
            inputs: inputs,
            components: {
                Difficulty.allCases.map { level in
                    .button(
                        title: level == current ? "\(level.name) ✓" : level.name, action: "choose", style: level == current ? .primary : .secondary,
                        item: ["id": .string(level.rawValue)])
                }
            })
    }

    private static let difficultyChoice = ScreenAction(
        name: "choose", method: "POST", path: navigatePath, row: "choices",
        body: [
            "from": [entry(TriviaRoute.trivia), entry(TriviaRoute.landing), optionsEntry, entry(TriviaRoute.difficultyMenu, filterPlaceholders)],
            "to": .string(TriviaRoute.options.rawValue),
            "input": [TriviaInput.difficulty: "{item.id}", TriviaInput.category: "{category}"],
        ])

    static let filterPlaceholders = [TriviaInput.difficulty: "{difficulty}", TriviaInput.category: "{category}"]

    /// Any category or one of the bank's: choosing one dismisses the sheet and replaces the options.
    @Sendable static func categoryPickerScreen(inputs: RouteInputs, context: TriviaScreenContext) throws -> ScreenContent {
        let current = try context.category(try required(TriviaInput.category, in: inputs))?.id ?? TriviaInput.anyCategory
        let all = [(TriviaInput.anyCategory, "Any category")] + context.bank.categories.map { ($0.id, $0.name) }
        let choices = all.map { id, name -> JSON in ["id": .string(id), "name": .string(name), "selected": .bool(id == current)] }
        return ScreenContent(
            payload: ["category": .string(current), "choices": .array(choices)], actions: [categoryChoice], inputs: inputs,
            components: {
                all.map { id, name in
                    .button(
                        title: id == current ? "\(name) ✓" : name, action: "choose", style: id == current ? .primary : .secondary,
                        item: ["id": .string(id)])
                }
            })
    }

    private static let categoryChoice = ScreenAction(
        name: "choose", method: "POST", path: navigatePath, row: "choices",
        body: [
            "from": [entry(TriviaRoute.trivia), entry(TriviaRoute.landing), optionsEntry, entry(TriviaRoute.categoryPicker, filterPlaceholders)],
            "to": .string(TriviaRoute.options.rawValue),
            "input": [TriviaInput.difficulty: "{difficulty}", TriviaInput.category: "{item.id}"],
        ])

    // MARK: Game and results

    /// The question to answer, its four choices (never which is correct), and the score so far;
    /// once every question is answered, the way to the results.
    @Sendable static func gameScreen(inputs: RouteInputs, context: TriviaScreenContext) throws -> ScreenContent {
        let game = try context.game(id: try required(TriviaInput.gameId, in: inputs))
        var payload: JSONObject = [
            "gameId": .string(game.id), "difficulty": .string(game.difficulty.rawValue),
            "category": game.category.map(JSON.string) ?? .null, "questionCount": .int(Int64(game.questions.count)),
            "answeredCount": .int(Int64(game.answeredCount)), "score": .int(Int64(game.score)), "finished": .bool(game.isFinished),
        ]
        if let last = game.questions.last(where: { $0.answer != nil }) { payload.append("lastAnswer", TriviaJSON.answered(last)) }
        guard let position = game.currentPosition else {
            return ScreenContent(
                payload: .object(payload), actions: [showResults], inputs: [TriviaInput.gameId: game.id],
                components: { [.text("Game over: \(game.score) of \(game.questions.count).", style: .headline), .button(title: "See results", action: "showResults")] })
        }
        let asked = game.questions[position]
        payload.append("number", .int(Int64(position + 1)))
        payload.append("questionId", .string(asked.question.id))
        payload.append("question", .string(asked.question.text))
        payload.append("choices", .array(asked.choices.map { ["text": .string($0)] }))
        return ScreenContent(
            payload: .object(payload), actions: [answer], inputs: [TriviaInput.gameId: game.id],
            components: {
                var components: [Component] = [
                    .text("Question \(position + 1) of \(game.questions.count) · score \(game.score)", style: .caption),
                    .text(asked.question.text, style: .headline),
                ]
                components += asked.choices.map { .button(title: $0, action: "answer", style: .secondary, item: ["text": .string($0)]) }
                return components
            })
    }

    /// The header of the actions that change data: one key per tap, the same for a retry of it.
    static let keyed = ["Idempotency-Key": "{idempotencyKey}"]

    private static let answer = ScreenAction(
        name: "answer", method: "POST", path: "/v1/trivia/games/{gameId}/answers", row: "choices",
        body: ["questionId": "{payload.questionId}", "answer": "{item.text}"], headers: keyed)

    private static let showResults = ScreenAction(
        name: "showResults", method: "POST", path: navigatePath,
        body: ["from": [entry(TriviaRoute.trivia), entry(TriviaRoute.game, [TriviaInput.gameId: "{gameId}"])], "to": .string(TriviaRoute.results.rawValue)])

    /// The score and every question with the answer given and the correct one; "Play again"
    /// walks back to the landing with the game's difficulty and category.
    @Sendable static func resultsScreen(inputs: RouteInputs, context: TriviaScreenContext) throws -> ScreenContent {
        let game = try context.game(id: try required(TriviaInput.gameId, in: inputs))
        let category = game.category ?? TriviaInput.anyCategory
        return ScreenContent(
            payload: [
                "gameId": .string(game.id), "score": .int(Int64(game.score)), "questionCount": .int(Int64(game.questions.count)),
                "difficulty": .string(game.difficulty.rawValue), "category": .string(category),
                "answers": .array(game.questions.map(TriviaJSON.answered)),
            ],
            actions: [playAgain], inputs: [TriviaInput.gameId: game.id],
            components: {
                var components: [Component] = [.text("\(game.score) of \(game.questions.count) correct", style: .headline)]
                for (index, asked) in game.questions.enumerated() {
                    let verdict = asked.correct == true ? "Correct" : "Wrong: \(asked.question.correctAnswer)"
                    components.append(.row(title: "\(index + 1). \(asked.question.text)", detail: asked.answer ?? "", value: verdict))
                }
                components.append(.button(title: "Play again", action: "playAgain", style: .primary))
                return components
            })
    }

    private static let playAgain = ScreenAction(
        name: "playAgain", method: "POST", path: navigatePath,
        body: [
            "from": [
                entry(TriviaRoute.trivia), entry(TriviaRoute.game, [TriviaInput.gameId: "{gameId}"]),
                entry(TriviaRoute.results, [TriviaInput.gameId: "{gameId}"]),
            ],
            "to": .string(TriviaRoute.options.rawValue),
            "input": [TriviaInput.difficulty: "{payload.difficulty}", TriviaInput.category: "{payload.category}"],
        ])

    /// The results only of a finished game: a walk there before the last answer is refused.
    static let finishedGame = GuardedBy<TriviaScreenContext>(
        RouteGuard(name: "gameFinished", code: "game_not_finished", summary: "every question of the game is answered")
    ) { inputs, context in
        try context.game(id: try required(TriviaInput.gameId, in: inputs)).isFinished
    }

    // MARK: No data

    /// Why nothing matched, and the way back to the options as they were.
    @Sendable static func noDataScreen(inputs: RouteInputs, context: TriviaScreenContext) throws -> ScreenContent {
        let difficulty = try context.difficulty(try required(TriviaInput.difficulty, in: inputs))
        let category = try context.category(try required(TriviaInput.category, in: inputs))
        let reason = noQuestionsReason(difficulty, category)
        return ScreenContent(
            payload: [
                "difficulty": .string(difficulty.rawValue), "category": .string(category?.id ?? TriviaInput.anyCategory), "reason": .string(reason),
            ],
            actions: [changeOptions], inputs: inputs,
            components: { [.text(reason, style: .body), .button(title: "Change options", action: "changeOptions", style: .primary)] })
    }

    /// "There are no hard questions in Music."
    static func noQuestionsReason(_ difficulty: Difficulty, _ category: TriviaCategory?) -> String {
        let level = difficulty == .mixed ? "" : "\(difficulty.rawValue) "
        return "There are no \(level)questions in \(category?.name ?? "any category")."
    }

    private static let changeOptions = ScreenAction(
        name: "changeOptions", method: "POST", path: navigatePath,
        body: [
            "from": [entry(TriviaRoute.trivia), entry(TriviaRoute.noData, filterPlaceholders)], "to": .string(TriviaRoute.options.rawValue),
            "input": .object(JSONObject(filterPlaceholders.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
        ])

    /// The no-data screen only when no question matches its filter.
    static let nothingMatches = GuardedBy<TriviaScreenContext>(
        RouteGuard(name: "nothingMatches", code: "questions_available", summary: "no question matches the difficulty and category")
    ) { inputs, context in
        let difficulty = try context.difficulty(try required(TriviaInput.difficulty, in: inputs))
        let category = try context.category(try required(TriviaInput.category, in: inputs))
        return context.bank.questions(difficulty, category: category?.id).isEmpty
    }

    static func required(_ name: String, in inputs: RouteInputs) throws -> String {
        guard let value = inputs[name] else { throw TriviaInputMissing(name: name) }
        return value
    }
}

/// A payload builder ran without an input its route requires: a wiring bug, not a client error.
struct TriviaInputMissing: Error {
    let name: String
}
