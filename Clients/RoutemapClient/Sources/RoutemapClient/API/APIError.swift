import Foundation

extension Problem: Error {}

/// A failure that is not a problem+json answer.
public enum APIError: Error, Sendable, Equatable {
    /// An answer the client cannot read: an unexpected status or content type, or a body that
    /// does not decode (`reason` says which).
    case unexpectedAnswer(status: Int, reason: String)
    /// The request needs a bearer token and the client has none (enroll first, or set one).
    case noToken
}

/// What an answer to a request with an `Idempotency-Key` says besides its body.
public struct Replayable<Answer: Sendable>: Sendable {
    public var answer: Answer
    /// True when the server answered with the recorded answer of an earlier attempt.
    public var replayed: Bool
}
