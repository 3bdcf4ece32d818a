import Foundation
import Synchronization

/// When a till next deletes expired idempotency keys: at the first keyed write, then at most
/// once a minute of its clock. Sweeping on every keyed write cost a query per payment for rows
/// that expire a day later.
final class KeyExpirySchedule: Sendable {
    static let interval: TimeInterval = 60
    private let lastSweep = Mutex<Date?>(nil)

    /// Whether a sweep is due at `now`; if so, counts it as done.
    func isDue(at now: Date) -> Bool {
        lastSweep.withLock { last in
            if let last, now.timeIntervalSince(last) < Self.interval, now >= last { return false }
            last = now
            return true
        }
    }
}
