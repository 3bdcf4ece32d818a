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

    /// The rule for a reason in words, for refusals: "must be …".
    public static let reasonRule = "1 to 200 characters, not only spaces, without control characters but tabs and line breaks"

    /// `reason`, if it can be recorded (``isValidReason(_:)``); else throws ``InvalidInput``.
    @discardableResult
    public static func checkedReason(_ reason: String) throws(InvalidInput) -> String {
        guard isValidReason(reason) else { throw InvalidInput(field: "reason", rule: reasonRule) }
        return reason
    }

    /// Whether `reason` can be recorded: 1 to ``maxReasonLength`` characters (Unicode scalars,
    /// as JSON Schema and the database count them), at least one visible (a blank reason
    /// explains nothing on the record; ``DisplayName/hasVisibleCharacter(_:)``), and no control
    /// characters but tabs and line breaks (a reason may run over lines).
    public static func isValidReason(_ reason: String) -> Bool {
        let scalars = reason.unicodeScalars
        return (1...maxReasonLength).contains(scalars.count) && DisplayName.hasVisibleCharacter(reason)
            && !scalars.contains(where: { DisplayName.isControl($0) && !["\t", "\n", "\r"].contains($0) })
    }
}
