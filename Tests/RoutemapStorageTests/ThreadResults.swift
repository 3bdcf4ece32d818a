import Foundation
import Synchronization

/// Runs `work` on `count` threads released together, and returns each one's result, in the
/// order they finished.
func resultsOnThreads<T: Sendable>(_ count: Int, _ work: @escaping @Sendable (Int) throws -> T) -> [Result<T, any Error>] {
    let results = Mutex<[Result<T, any Error>]>([])
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread.detachNewThread {
            start.wait()
            let result = Result { try work(index) }
            results.withLock { $0.append(result) }
            done.leave()
        }
    }
    for _ in 0..<count { start.signal() }
    done.wait()
    return results.withLock { $0 }
}
