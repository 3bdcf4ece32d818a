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
    private let buckets = Mutex<[String: Bucket]>([:])
    private let clock: @Sendable () -> Double
    private static let maxKeys = 100_000

    /// - Parameters: rate: tokens regained per second (> 0); burst: bucket size (≥ 1).
    init(rate: Double, burst: Double, clock: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.rate = rate
        self.burst = max(1, burst)
        self.clock = clock
    }

    /// Spends one token of `key`: `nil` when allowed, else the whole seconds to wait.
    func spend(_ key: String) -> Int? {
        let now = clock()
        return buckets.withLock { buckets in
            if buckets.count >= Self.maxKeys, buckets[key] == nil { buckets.removeAll(keepingCapacity: true) }
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) * rate)
            bucket.updated = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up))) }
            bucket.tokens -= 1
            return nil
        }
    }

    /// Whether `key` has a token left, without spending one.
    func wouldRefuse(_ key: String) -> Int? {
        let now = clock()
        return buckets.withLock { buckets in
            guard let bucket = buckets[key] else { return nil }
            let tokens = min(burst, bucket.tokens + (now - bucket.updated) * rate)
            return tokens >= 1 ? nil : max(1, Int(((1 - tokens) / rate).rounded(.up)))
        }
    }
}
