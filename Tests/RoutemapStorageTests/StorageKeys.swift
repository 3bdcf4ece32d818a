import Foundation
import RoutemapDomain
import Synchronization

/// Idempotency keys as the API builds them, for the storage tests: a success is recorded as
/// 201 (bills, with a `Location`) or 200 (payments) with bytes naming what was done, a state
/// conflict as 409.
enum Keys {
    static func bill(_ key: String, fingerprint: String = "POST /v1/bills", body: [UInt8]? = nil) -> IdempotencyKey<Bill> {
        IdempotencyKey(key: key, fingerprint: fingerprint) { outcome in
            switch outcome {
            case .success(let bill): (201, body ?? Array("bill \(bill.id)".utf8), "/v1/bills/\(bill.id)")
            case .failure(let error): (409, Array("conflict \(error)".utf8), nil)
            }
        }
    }

    static func payment(_ key: String, fingerprint: String) -> IdempotencyKey<PaymentOutcome> {
        IdempotencyKey(key: key, fingerprint: fingerprint) { outcome in
            switch outcome {
            case .success(let outcome): (200, Array("payment \(outcome.payment.id) next \(outcome.nextBill.id)".utf8), nil)
            case .failure(let error): (409, Array("conflict \(error)".utf8), nil)
            }
        }
    }
}

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let date: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        date = Mutex(start)
    }

    var now: Date { date.withLock { $0 } }

    func advance(by interval: TimeInterval) {
        date.withLock { $0 += interval }
    }

    /// The clock as `Till` takes it.
    var function: @Sendable () -> Date { { self.now } }
}

extension IdempotentOutcome {
    /// The value, if performed now.
    var performedValue: Outcome? {
        guard case .performed(let value, _) = self else { return nil }
        return value
    }

    /// The answer recorded now, if performed now with a key.
    var recordedNow: RecordedResponse? {
        guard case .performed(_, let recorded) = self else { return nil }
        return recorded
    }

    /// The answer replayed, if this was a replay.
    var replayed: RecordedResponse? {
        guard case .replayed(let recorded) = self else { return nil }
        return recorded
    }
}

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
