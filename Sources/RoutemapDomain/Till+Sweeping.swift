import Foundation

extension Till {
    /// Deletes the answers recorded under idempotency keys that are past their lifetime (a
    /// retry that late is a new request): what routemap's key sweeper runs every minute (by the till's clock), so
    /// the table stays bounded even when no keyed write comes to sweep it.
    public func deleteExpiredIdempotencyRecords() async throws {
        let cutoff = timestamp().addingTimeInterval(-IdempotencyKey<Bill>.lifetime)
        try await store.write { transaction in try transaction.deleteRecordedAnswers(before: cutoff) }
    }
}
