import RoutemapDomain

/// Where the trivia app keeps its question bank and its games: the storage boundary of the app.
/// `SQLiteTriviaStore` implements it on the server's SQLite file, `PostgresTriviaStore` on
/// PostgreSQL; the use cases and handlers see only this protocol.
///
/// Implementations are called from many threads at once.
package protocol TriviaStore: DataReads {
    /// The categories, in order.
    func categories() throws -> [TriviaCategory]
    /// Every question of the bank (it changes only with a migration).
    func questions() throws -> [Question]
    /// The game with `id`, of any device, or `nil`.
    func game(id: String) throws -> Game?
    /// Saves a new game, and returns once it has committed. Under an idempotency key of the
    /// game's device (``IdempotencyKey/perform(device:now:in:_:)``, in the same transaction), a
    /// key recorded already replays its answer and saves nothing.
    func insert(_ game: Game, idempotency: IdempotencyKey<Game>?) async throws -> IdempotentOutcome<Game>
    /// Runs `change` on game `id` in one write transaction, serialized with every other write:
    /// `change` sees the game as committed (`nil` if there is none) and returns the game to save
    /// (answers added, finished) with its result. Nothing is saved if it throws. Only answers
    /// not yet recorded and the finishing time are saved: a recorded answer never changes.
    /// Under an idempotency key of `deviceId`, as for ``insert(_:idempotency:)``: a key recorded
    /// already replays its answer and `change` does not run.
    func update<T: Sendable>(
        gameId id: String, device deviceId: String, idempotency: IdempotencyKey<T>?, _ change: @escaping @Sendable (Game?) throws -> (Game, T)
    ) async throws -> IdempotentOutcome<T>
    /// The answer recorded for idempotency key `key` of `deviceId`, however old, or `nil`:
    /// read for a request that saves nothing (a start that finds no question), whose key is
    /// still checked as a change's is.
    func recordedAnswer(device deviceId: String, key: String) throws -> RecordedAnswer?
    /// Throws unless the database answers (for health checks).
    func ping() throws
}
