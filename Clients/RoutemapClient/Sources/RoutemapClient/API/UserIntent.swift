import Foundation

/// One thing the user meant to do once (tap "Pay", tap "Check out"). Its `idempotencyKey` goes
/// with every attempt of that intent: create one per tap, and pass the same value when the app
/// retries after a timeout, so the server answers the retry with the recorded answer
/// (`Idempotent-Replayed: true`) instead of acting twice.
public struct UserIntent: Sendable, Hashable {
    public let idempotencyKey: String

    /// A new intent with a fresh key (a UUID).
    public init() { idempotencyKey = UUID().uuidString.lowercased() }

    /// An intent with a key of the app's own (1 to 255 visible ASCII characters).
    public init(idempotencyKey: String) { self.idempotencyKey = idempotencyKey }
}
