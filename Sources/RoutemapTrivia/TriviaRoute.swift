import RoutemapNavigation

/// The route ids of the trivia app. Clients keep these in their stacks: never rename one.
package enum TriviaRoute {
    /// The root: a navigation stack whose first screen is the landing.
    package static let trivia: RouteID = "trivia"
    package static let landing: RouteID = "landing"
    /// The panel embedded in the landing: the difficulty and category chosen, and Play.
    package static let options: RouteID = "options"
    package static let difficultyMenu: RouteID = "difficultyMenu"
    package static let categoryPicker: RouteID = "categoryPicker"
    package static let game: RouteID = "game"
    package static let results: RouteID = "results"
    package static let noData: RouteID = "noData"
}

/// Names of the navigation inputs trivia routes require and provide.
package enum TriviaInput {
    package static let difficulty = "difficulty"
    /// A category id, or ``anyCategory``.
    package static let category = "category"
    package static let gameId = "gameId"
    /// The `category` input of a game of any category.
    package static let anyCategory = "any"
}
