extension StorageError {
    /// Runs `body`, turning any error that is not already a `StorageError` (GRDB's
    /// `DatabaseError`, a row decoding error) into ``database(operation:underlying:)``.
    /// For code that runs no domain logic, so every error it throws is a storage failure.
    @discardableResult
    static func wrapping<T>(_ operation: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StorageError {
            throw error
        } catch {
            StorageMetrics.databaseErrors.increment()
            throw StorageError.database(operation: operation(), underlying: error)
        }
    }
}
