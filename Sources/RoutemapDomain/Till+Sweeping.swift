import Foundation

extension Till {
    /// Deletes the answers recorded under idempotency keys that are past their lifetime (a
    /// retry that late is a new request): what routemap's key sweeper runs every minute, so
    /// the table stays bounded even when no keyed write comes to sweep it.
    public func deleteExpiredIdempotencyRecords(now: Date = Date()) async throws {
        let cutoff = now.addingTimeInterval(-IdempotencyKey<Bill>.lifetime)
        try await store.write { transaction in try transaction.deleteRecordedAnswers(before: cutoff) }
    }
}
