/// The questions and categories, read once from the store when the app starts: they change only
/// with a migration, so games are drawn from memory.
package struct QuestionBank: Sendable {
    package let categories: [TriviaCategory]
    package let questions: [Question]

    package init(categories: [TriviaCategory], questions: [Question]) {
        self.categories = categories
        self.questions = questions
    }

    /// Reads the bank from `store`.
    package init(store: any TriviaStore) throws {
        self.init(categories: try store.categories(), questions: try store.questions())
    }

    package func category(id: String) -> TriviaCategory? { categories.first { $0.id == id } }

    /// The questions of `difficulty` (any level for `mixed`) in `category` (any for `nil`).
    package func questions(_ difficulty: Difficulty, category: String?) -> [Question] {
        questions.filter { difficulty.admits($0.difficulty) && (category == nil || $0.category == category) }
    }
}
