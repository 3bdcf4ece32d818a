/// Runs `work` for each index in `0..<count` at once, as the children of one task group, and
/// returns each one's result in index order. The writes the children start are all in flight
/// together: each waits for its commit without holding a thread.
func concurrentResults<T: Sendable>(_ count: Int, _ work: @escaping @Sendable (Int) async throws -> T) async -> [Result<T, any Error>] {
    await withTaskGroup(of: (Int, Result<T, any Error>).self) { group in
        for index in 0..<count {
            group.addTask {
                do {
                    return (index, .success(try await work(index)))
                } catch {
                    return (index, .failure(error))
                }
            }
        }
        var results: [(Int, Result<T, any Error>)] = []
        for await result in group { results.append(result) }
        return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
