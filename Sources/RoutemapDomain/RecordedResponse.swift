import Foundation

/// The answer to a request made with an idempotency key, kept so that a retry with the same
/// key gets the same answer instead of repeating the effect. The domain treats the body as
/// opaque bytes; the API layer decides what goes in.
public struct RecordedResponse: Sendable, Hashable {
    public let deviceId: String
    public let key: String
    /// Identifies the request (method, path, canonical body): a key reused for a different
    /// request is refused.
    public let fingerprint: String
    public let status: Int
    public let body: [UInt8]
    public let location: String?
    public let createdAt: Date

    public init(deviceId: String, key: String, fingerprint: String, status: Int, body: [UInt8], location: String?, createdAt: Date) {
        self.deviceId = deviceId
        self.key = key
        self.fingerprint = fingerprint
        self.status = status
        self.body = body
        self.location = location
        self.createdAt = createdAt
    }
}

/// A request's idempotency key and how to record its answer.
public struct IdempotencyKey<Outcome>: Sendable {
    public let key: String
    public let fingerprint: String
    /// The answer to keep for an outcome (a success, or a state conflict); `nil` keeps none.
    public let record: @Sendable (Result<Outcome, POSError>) throws -> (status: Int, body: [UInt8], location: String?)?

    public init(
        key: String, fingerprint: String,
        record: @escaping @Sendable (Result<Outcome, POSError>) throws -> (status: Int, body: [UInt8], location: String?)?
    ) {
        self.key = key
        self.fingerprint = fingerprint
        self.record = record
    }

    /// How long a key is remembered.
    public static var lifetime: TimeInterval { 24 * 60 * 60 }
}

/// What an idempotent use case did: performed now, or answered from an earlier request with
/// the same key.
public enum IdempotentOutcome<Outcome>: Sendable where Outcome: Sendable {
    /// Done now; with the answer recorded for the key, when there is one.
    case performed(Outcome, recorded: RecordedResponse?)
    /// Done before: the answer recorded then.
    case replayed(RecordedResponse)
}
