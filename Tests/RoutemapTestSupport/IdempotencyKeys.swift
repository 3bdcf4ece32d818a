import Foundation
import RoutemapDomain
import Synchronization

/// Idempotency keys as the API builds them, for the domain and storage tests, with answers
/// simple enough to compare (the domain keeps answers as opaque bytes): a success is recorded
/// as text naming what was done, a state conflict as "conflict" with the error.
public enum Keys {
    public static func bill(_ key: String, fingerprint: String = "POST /v1/bills", body: [UInt8]? = nil) -> IdempotencyKey<Bill> {
        IdempotencyKey(key: key, fingerprint: fingerprint) { outcome in
            switch outcome {
            case .success(let bill): body ?? Array("bill \(bill.id) v\(bill.version)".utf8)
            case .failure(let error): Array("conflict \(error)".utf8)
            }
        }
    }

    public static func payment(_ key: String, fingerprint: String) -> IdempotencyKey<PaymentOutcome> {
        IdempotencyKey(key: key, fingerprint: fingerprint) { outcome in
            switch outcome {
            case .success(let outcome): Array("payment \(outcome.payment.id) next \(outcome.nextBill.id)".utf8)
            case .failure(let error): Array("conflict \(error)".utf8)
            }
        }
    }

    public static func refund(_ key: String, fingerprint: String) -> IdempotencyKey<RefundOutcome> {
        IdempotencyKey(key: key, fingerprint: fingerprint) { outcome in
            switch outcome {
            case .success(let outcome): Array("refund \(outcome.refund.id) left \(outcome.refundableMinor)".utf8)
            case .failure(let error): Array("conflict \(error)".utf8)
            }
        }
    }
}

/// A clock the test moves by hand.
public final class TestClock: Sendable {
    private let date: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        date = Mutex(start)
    }

    public var now: Date { date.withLock { $0 } }

    public func advance(by interval: TimeInterval) {
        date.withLock { $0 += interval }
    }

    /// The clock as `Till` takes it.
    public var function: @Sendable () -> Date { { self.now } }
}

extension IdempotentOutcome {
    /// The value, if performed now.
    public var performedValue: Outcome? {
        guard case .performed(let value, _) = self else { return nil }
        return value
    }

    /// The answer recorded now, if performed now with a key.
    public var recordedNow: RecordedAnswer? {
        guard case .performed(_, let recorded) = self else { return nil }
        return recorded
    }

    /// The answer replayed, if this was a replay.
    public var replayed: RecordedAnswer? {
        guard case .replayed(let recorded) = self else { return nil }
        return recorded
    }
}
