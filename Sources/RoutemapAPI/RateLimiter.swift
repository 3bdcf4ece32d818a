import Foundation
import Synchronization

/// Token buckets by key (a device, a client address): each key may spend `burst` requests at
/// once and regains `rate` per second. Refusals say when to retry; nothing ever sleeps.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    private let rate: Double
    private let burst: Double
    private let buckets = Mutex<(table: [String: Bucket], prunedAt: Double)>(([:], -.infinity))
    private let clock: @Sendable () -> Double
    /// Keys tracked at most (memory stays bounded whatever keys clients make up).
    private let maxKeys: Int

    /// - Parameters: rate: tokens regained per second (> 0); burst: bucket size (≥ 1);
    ///   maxKeys: keys tracked at most.
    init(
        rate: Double, burst: Double, maxKeys: Int = 100_000, clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.rate = rate
        self.burst = max(1, burst)
        self.maxKeys = max(1, maxKeys)
        self.clock = clock
    }

    /// Spends one token of `key`: `nil` when allowed, else the whole seconds to wait.
    ///
    /// With `maxKeys` keys tracked, a new key first drops the buckets that have refilled (a
    /// full bucket is the same as none); if every bucket is still spending, the new key is
    /// refused for a second rather than the table emptied, which would hand every key a full
    /// bucket again (a client making up keys, say many addresses, would reset its own limit).
    /// The table is pruned at most once a second, so new keys cannot make every request walk it.
    func spend(_ key: String) -> Int? {
        let now = clock()
        return buckets.withLock { state in
            if state.table.count >= maxKeys, state.table[key] == nil {
                guard now - state.prunedAt >= 1 else { return 1 }
                state.prunedAt = now
                state.table = state.table.filter { refilled($0.value, at: now).tokens < burst }
                if state.table.count >= maxKeys { return 1 }
            }
            var bucket = refilled(state.table[key], at: now)
            defer { state.table[key] = bucket }
            if let wait = wait(for: bucket) { return wait }
            bucket.tokens -= 1
            return nil
        }
    }

    /// `nil` when `key` has a token left, else the whole seconds until it has one; spends nothing.
    func wouldRefuse(_ key: String) -> Int? {
        let now = clock()
        return buckets.withLock { state in
            wait(for: refilled(state.table[key], at: now))
        }
    }

    /// `bucket` (a full one for a new key) with what it regained since it was last used.
    private func refilled(_ bucket: Bucket?, at now: Double) -> Bucket {
        guard let bucket else { return Bucket(tokens: burst, updated: now) }
        return Bucket(tokens: min(burst, bucket.tokens + (now - bucket.updated) * rate), updated: now)
    }

    /// Whole seconds until `bucket` holds a token; `nil` when it holds one now.
    private func wait(for bucket: Bucket) -> Int? {
        bucket.tokens >= 1 ? nil : max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
    }
}
