import RoutemapDomain
import Synchronization

/// Answers by what they depend on, so a request that would build the same answer again sends
/// the one built before. Holds at most `capacity` answers; beyond, the ones cached first
/// make room (a miss only costs building the answer).
///
/// Public and `@inlinable` for one reason: so that the apps' modules specialize it (and the
/// `BoundedDictionary` in it) for their keys; as `package`, its lookups ran unspecialized,
/// looking generic metadata up on every request.
public final class AnswerCache<Key: Hashable & Sendable, Answer: Sendable>: Sendable {
    @usableFromInline let answers: Mutex<BoundedDictionary<Key, Answer>>

    public init(capacity: Int) {
        answers = Mutex(BoundedDictionary(capacity: capacity))
    }

    /// The answer for `key`, built by `build` if it is not cached.
    @inlinable public func answer(for key: Key, build: () throws -> Answer) rethrows -> Answer {
        if let cached = answers.withLock({ $0[key] }) { return cached }
        let answer = try build()
        answers.withLock { $0[key] = answer }
        return answer
    }
}
