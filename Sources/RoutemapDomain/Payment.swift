import Foundation

/// A recorded payment of one bill (a bill paid by split tender has several).
public struct Payment: Sendable, Hashable, Identifiable {
    /// `pay_` followed by 22 random base62 characters.
    public let id: String
    public let billId: String
    /// The number printed on its receipt: 1 for the store's first payment, then one more for
    /// each, with no gaps and never reused (given in the paying transaction, by
    /// ``POSTransaction/nextReceiptNumber()``).
    public let receiptNumber: Int64
    public let method: PaymentMethod
    /// The bill's total.
    public let amountMinor: Int64
    /// The customer's tip, on top of the amount (0 for none): not a sale, so not taxed, not in
    /// the sales report's takings and not refundable.
    public let tipMinor: Int64
    /// What was handed over: for card always ``chargedMinor``.
    public let tenderedMinor: Int64
    /// `tenderedMinor − amountMinor − tipMinor`: for card always 0.
    public let changeMinor: Int64
    public let createdAt: Date
    /// The device that took it (whose cash drawer a cash payment went into: see ``DrawerShift``);
    /// `nil` for a payment recorded before devices were (migration 0024).
    public let deviceId: String?

    /// What the customer was charged in all: the amount and the tip. It fits in 64 bits for
    /// every payment ``Bill/check(_:)`` passed (it checks the sum) and every stored one (the
    /// stores refuse a row whose sum does not fit); for a payment made up otherwise that
    /// overflows, `Int64.max` rather than a trap.
    public var chargedMinor: Int64 {
        let (sum, overflow) = amountMinor.addingReportingOverflow(tipMinor)
        return overflow ? .max : sum
    }

    public init(
        id: String, billId: String, receiptNumber: Int64, method: PaymentMethod, amountMinor: Int64, tipMinor: Int64 = 0,
        tenderedMinor: Int64, changeMinor: Int64, createdAt: Date, deviceId: String? = nil
    ) {
        self.id = id
        self.billId = billId
        self.receiptNumber = receiptNumber
        self.method = method
        self.amountMinor = amountMinor
        self.tipMinor = tipMinor
        self.tenderedMinor = tenderedMinor
        self.changeMinor = changeMinor
        self.createdAt = createdAt
        self.deviceId = deviceId
    }
}
