import Synchronization

/// Encoded answers by what they depend on, so a request that would build the same answer
/// again sends the bytes built before. Holds at most `capacity` answers; beyond, arbitrary ones
/// make room (a miss only costs building the answer).
final class AnswerCache<Key: Hashable & Sendable>: Sendable {
    let capacity: Int
    private let answers = Mutex<[Key: [UInt8]]>([:])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The answer for `key`, built by `build` if it is not cached.
    func answer(for key: Key, build: () throws -> [UInt8]) rethrows -> [UInt8] {
        if let cached = answers.withLock({ $0[key] }) { return cached }
        let answer = try build()
        answers.withLock { answers in
            if answers.count >= capacity, answers[key] == nil, let victim = answers.first?.key { answers[victim] = nil }
            answers[key] = answer
        }
        return answer
    }
}
