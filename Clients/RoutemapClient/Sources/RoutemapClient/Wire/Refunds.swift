/// Money a manager gave back on a paid bill, by its payment's method (`Refund` in openapi.yaml).
public struct Refund: Codable, Sendable, Hashable, WireObjectWithKeys {
    /// `ref_…`.
    public var refundId: String
    public var billId: String
    /// The payment it gives back part of.
    public var paymentId: String
    /// The payment's method: cash from the drawer, or back to the card.
    public var method: PaymentMethod
    public var amountMinor: Int64
    public var reason: String
    /// The manager's device that made it.
    public var deviceId: String
    /// RFC 3339 date-time, as the server wrote it.
    public var createdAt: String

    enum CodingKeys: String, CodingKey, CaseIterable { case refundId, billId, paymentId, method, amountMinor, reason, deviceId, createdAt }
}

/// `POST /v1/bills/{billId}/refund` (managers only): what to give back, and why.
public struct RefundRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    /// At least 1, at most what is left of the payment after earlier refunds.
    public var amountMinor: Int64
    /// 1 to 200 characters, as a void's reason.
    public var reason: String
    /// The payment to give back part of (one of the bill's `payments`): required for a bill paid
    /// by several (split tender), optional with one.
    public var paymentId: String?

    public init(amountMinor: Int64, reason: String, paymentId: String? = nil) {
        self.amountMinor = amountMinor
        self.reason = reason
        self.paymentId = paymentId
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case amountMinor, reason, paymentId }
}

/// The answer to `POST /v1/bills/{billId}/refund`: the refund made, and the bill's refunds with it.
public struct RefundAnswer: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var refund: Refund
    /// Σ of the bill's refunds, this one included.
    public var refundedMinor: Int64
    /// What may still be refunded on the bill.
    public var refundableMinor: Int64

    enum CodingKeys: String, CodingKey, CaseIterable { case refund, refundedMinor, refundableMinor }
}

/// `GET /v1/bills/{billId}/refunds` (managers only): a bill's refunds, oldest first, and what
/// they leave (`RefundList` in openapi.yaml).
public struct RefundList: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var refunds: [Refund]
    public var refundedMinor: Int64
    /// What may still be refunded; 0 for a bill that is not paid.
    public var refundableMinor: Int64

    enum CodingKeys: String, CodingKey, CaseIterable { case refunds, refundedMinor, refundableMinor }
}
