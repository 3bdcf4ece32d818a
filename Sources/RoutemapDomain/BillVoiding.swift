import Foundation

/// Why and when a bill was voided: kept with the bill, whose lines stay for the record.
public struct BillVoiding: Sendable, Hashable {
    /// What the cashier gave as the reason (1 to ``maxReasonLength`` characters).
    public let reason: String
    public let voidedAt: Date

    public init(reason: String, voidedAt: Date) {
        self.reason = reason
        self.voidedAt = voidedAt
    }

    /// The longest reason, in characters.
    public static let maxReasonLength = 200
}
