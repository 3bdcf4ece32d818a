import Foundation

/// The answer to a request made with an idempotency key, kept so that a retry with the same
/// key gets the same answer instead of repeating the effect. To the domain the answer is
/// opaque bytes: the API layer encodes it (status, header fields, body) and decodes it.
public struct RecordedAnswer: Sendable, Hashable {
    public let deviceId: String
    public let key: String
    /// Identifies the request (method, path, canonical body): a key reused for a different
    /// request is refused.
    public let fingerprint: String
    /// The answer, as the layer that records it encoded it.
    public let answer: [UInt8]
    public let createdAt: Date

    public init(deviceId: String, key: String, fingerprint: String, answer: [UInt8], createdAt: Date) {
        self.deviceId = deviceId
        self.key = key
        self.fingerprint = fingerprint
        self.answer = answer
        self.createdAt = createdAt
    }
}

/// A key sent again with a different request than the one it was first sent with: refused,
/// whichever app's endpoint it is sent to.
public struct IdempotencyKeyReused: Error, Hashable, Sendable {
    public let key: String

    public init(key: String) {
        self.key = key
    }
}

/// A request's idempotency key and how to record its answer.
public struct IdempotencyKey<Outcome>: Sendable {
    public let key: String
    public let fingerprint: String
    /// The answer to keep for an outcome (a success, or a ``StateConflict`` the change ran
    /// into), encoded; `nil` keeps none. Called inside the write transaction, so the record
    /// commits exactly when the effect does.
    public let record: @Sendable (Result<Outcome, any Error>) throws -> [UInt8]?

    public init(key: String, fingerprint: String, record: @escaping @Sendable (Result<Outcome, any Error>) throws -> [UInt8]?) {
        self.key = key
        self.fingerprint = fingerprint
        self.record = record
    }

    /// How long a key is remembered.
    public static var lifetime: TimeInterval { 24 * 60 * 60 }
}

/// An error a keyed change records as its answer when `isStateConflict` (the state refused the
/// change: a retry of it meets the same answer, as a pay of a bill already paid does), rather than
/// rolling back unrecorded as a validation failure does. ``POSError`` is one; an app's own
/// rule errors (the trivia app's) can be too.
public protocol StateConflict: Error {
    /// Whether this error is a state conflict, recorded under the request's key.
    var isStateConflict: Bool { get }
}

/// What an idempotent use case did: performed now, or answered from an earlier request with
/// the same key.
public enum IdempotentOutcome<Outcome>: Sendable where Outcome: Sendable {
    /// Done now; with the answer recorded for the key, when there is one.
    case performed(Outcome, recorded: RecordedAnswer?)
    /// Done before: the answer recorded then.
    case replayed(RecordedAnswer)
}

extension IdempotentOutcome {
    /// The outcome of a change run without a key, which is always performed (a replay needs a
    /// key, so the second case never happens).
    package func performedWithoutKey() throws -> Outcome {
        switch self {
        case .performed(let value, _): value
        case .replayed: throw InvariantViolation("a change run without an idempotency key was replayed")
        }
    }
}

/// Where a write transaction keeps the answers recorded for idempotency keys (the point of
/// sale's ``POSTransaction``, and the apps beside it that share its database).
public protocol RecordedAnswers {
    /// The answer recorded for `key` of `deviceId`, if any (however old).
    func recordedAnswer(deviceId: String, key: String) throws -> RecordedAnswer?
    /// Records an answer, replacing an expired one with the same device and key.
    func record(_ answer: RecordedAnswer) throws
}

extension IdempotencyKey where Outcome: Sendable {
    /// The one rule of a keyed change, run inside its write transaction: a key of `device`
    /// recorded in the last ``lifetime`` replays its recorded answer (or throws
    /// ``IdempotencyKeyReused`` for a different request); else `body` runs, and its outcome, or
    /// a state conflict it throws, is recorded in `answers`, so the record commits exactly when
    /// the effect does. A recorded conflict comes back as the failure, to throw after the commit.
    public func perform(
        device: String, now: Date, in answers: any RecordedAnswers, _ body: () throws -> Outcome
    ) throws -> Result<IdempotentOutcome<Outcome>, any Error> {
        if let recorded = try replayable(answers.recordedAnswer(deviceId: device, key: key), now: now) {
            return .success(.replayed(recorded))
        }
        let outcome: Result<Outcome, any Error>
        do {
            outcome = .success(try body())
        } catch let error as any StateConflict where error.isStateConflict {
            outcome = .failure(error)
        }
        var recorded: RecordedAnswer?
        if let answer = try record(outcome) {
            let record = RecordedAnswer(deviceId: device, key: key, fingerprint: fingerprint, answer: answer, createdAt: now)
            try answers.record(record)
            recorded = record
        }
        return outcome.map { .performed($0, recorded: recorded) }
    }

    /// `recorded` (what is stored for this key of the device) if it is to be replayed: `nil`
    /// when there is none or it has expired; ``IdempotencyKeyReused`` when it was recorded for
    /// a different request. ``perform(device:now:in:_:)`` checks a key by this rule; so does a
    /// request that changes nothing, and so has no transaction to check its key in.
    public func replayable(_ recorded: RecordedAnswer?, now: Date) throws -> RecordedAnswer? {
        guard let recorded, recorded.createdAt > now.addingTimeInterval(-Self.lifetime) else { return nil }
        guard recorded.fingerprint == fingerprint else { throw IdempotencyKeyReused(key: key) }
        return recorded
    }
}
