import Dispatch
import RoutemapStorage
import Synchronization

/// Holds a store's writer busy with a write of its own, whose body blocks the writer's thread
/// (inside its transaction, so holding the file's write lock too) until released. Writes
/// started meanwhile can only queue, and then commit in the batches the queue forms.
final class HeldWriter: Sendable {
    private let entered = Atomic<Bool>(false)
    private let gate = DispatchSemaphore(value: 0)
    private let holding = Mutex<Task<Void, any Error>?>(nil)

    /// Starts the holding write on `store`, and returns once its body runs.
    init(_ store: SQLiteStore) async throws {
        let task = Task { [self] in try await store.write { _ in self.block() } }
        holding.withLock { $0 = task }
        while !entered.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
    }

    private func block() {
        entered.store(true, ordering: .releasing)
        gate.wait()
    }

    /// Lets the held write finish, without waiting for it: for a `defer`, so that a test that
    /// stops early does not leave the writer blocked.
    func open() {
        gate.signal()
    }

    /// Lets the held write finish, and returns once it has committed.
    func release() async throws {
        open()
        try await holding.withLock { $0 }?.value
    }

    /// Runs `work` for each index in `0..<count` at once while the writer is held, lets the
    /// writer go once every one has started, and returns their results in index order.
    /// `work` must start its write before anything else that suspends: a write is handed to
    /// the queue before the caller first suspends, so once all have started, all are queued
    /// (the short pause covers the last one's few instructions in between).
    func queue<T: Sendable>(_ count: Int, _ work: @escaping @Sendable (Int) async throws -> T) async throws -> [Result<T, any Error>] {
        defer { open() }
        let started = StartCounter()
        async let results = concurrentResults(count) { index in
            started.count.add(1, ordering: .relaxed)
            return try await work(index)
        }
        while started.count.load(ordering: .relaxed) < count { try await Task.sleep(for: .milliseconds(1)) }
        try await Task.sleep(for: .milliseconds(20))
        try await release()
        return await results
    }
}

private final class StartCounter: Sendable {
    let count = Atomic<Int>(0)
}
