/// What the cashier asks to pay: the method, the amount (which must equal the bill's total) and,
/// for cash, what the customer handed over.
public struct PaymentRequest: Sendable, Hashable {
    public let method: PaymentMethod
    /// Must equal the bill's `totalMinor`: the client confirms the total it showed.
    public let amountMinor: Int64
    /// Cash handed over; `nil` means exactly `amountMinor`. For card, omit it or send `amountMinor`.
    public let tenderedMinor: Int64?

    public init(method: PaymentMethod, amountMinor: Int64, tenderedMinor: Int64? = nil) {
        self.method = method
        self.amountMinor = amountMinor
        self.tenderedMinor = tenderedMinor
    }
}
