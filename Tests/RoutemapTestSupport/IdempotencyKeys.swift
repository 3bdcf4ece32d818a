import Foundation
import RoutemapDomain
import Synchronization

/// Idempotency keys as the API builds them, for the domain and storage tests, with answers
/// simple enough to compare: a success is recorded as 201 (bills, with a `Location`) or 200
/// (payments) with bytes naming what was done, a state conflict as 409 with the error.
public enum Keys {
    public static func bill(_ key: String, fingerprint: String = "POST /v1/bills", body: [UInt8]? = nil) -> IdempotencyKey<Bill> {
        IdempotencyKey(key: key, fingerprint: fingerprint) { outcome in
            switch outcome {
            case .success(let bill): (201, body ?? Array("bill \(bill.id) v\(bill.version)".utf8), "/v1/bills/\(bill.id)")
            case .failure(let error): (409, Array("conflict \(error)".utf8), nil)
            }
        }
    }

    public static func payment(_ key: String, fingerprint: String) -> IdempotencyKey<PaymentOutcome> {
        IdempotencyKey(key: key, fingerprint: fingerprint) { outcome in
            switch outcome {
            case .success(let outcome): (200, Array("payment \(outcome.payment.id) next \(outcome.nextBill.id)".utf8), nil)
            case .failure(let error): (409, Array("conflict \(error)".utf8), nil)
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
    public var recordedNow: RecordedResponse? {
        guard case .performed(_, let recorded) = self else { return nil }
        return recorded
    }

    /// The answer replayed, if this was a replay.
    public var replayed: RecordedResponse? {
        guard case .replayed(let recorded) = self else { return nil }
        return recorded
    }
}
