/// `GET /v1/bills/{billId}/receipt`: a paid bill's receipt (`Receipt` in openapi.yaml). Money in
/// minor units of `currency`.
public struct Receipt: Codable, Sendable, Hashable, WireObjectWithKeys {
    /// The payment's ``Payment/receiptNumber``.
    public var receiptNumber: Int64
    public var shop: Shop
    public var billId: String
    /// When the bill was paid (the payment's `createdAt`), RFC 3339 as the server wrote it.
    public var paidAt: String
    public var lines: [BillLine]
    public var subtotalMinor: Int64
    /// The bill's discount, when it had one.
    public var discount: Discount?
    /// What the discount took off the subtotal; 0 without one.
    public var discountMinor: Int64
    public var tax: ReceiptTax
    public var totalMinor: Int64
    /// The customer's tip, on top of the total (the payment's ``Payment/tipMinor``).
    public var tipMinor: Int64
    /// What was charged in all: `totalMinor + tipMinor`.
    public var chargedMinor: Int64
    public var currency: String
    /// The payment that completed the bill (its only one unless split).
    public var payment: Payment
    /// Every payment of the bill, oldest first.
    public var payments: [Payment]
    /// The refunds made on the bill since, oldest first.
    public var refunds: [Refund]
    /// Σ of the refunds' amounts.
    public var refundedMinor: Int64

    enum CodingKeys: String, CodingKey, CaseIterable {
        case receiptNumber, shop, billId, paidAt, lines, subtotalMinor, discount, discountMinor, tax, totalMinor, tipMinor, chargedMinor, currency, payment, payments,
            refunds, refundedMinor
    }
}

/// The shop's details on a receipt, as the server's settings give them; `nil` when not set
/// (`Shop` in openapi.yaml).
public struct Shop: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var name: String?
    /// One line.
    public var address: String?
    public var taxId: String?

    public init(name: String? = nil, address: String? = nil, taxId: String? = nil) {
        self.name = name
        self.address = address
        self.taxId = taxId
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case name, address, taxId }
}

/// A receipt's tax: the bill's rate and the amount it came to (`Receipt.tax` in openapi.yaml).
public struct ReceiptTax: Codable, Sendable, Hashable, WireObjectWithKeys {
    /// Basis points: 875 = 8.75%.
    public var rateBps: Int
    public var amountMinor: Int64

    enum CodingKeys: String, CodingKey, CaseIterable { case rateBps, amountMinor }
}

extension Receipt {
    /// Decodes a receipt, also from a server from before split tender (a node not yet upgraded
    /// during a rollout), which sends no `payments`: its one `payment`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        receiptNumber = try container.decode(Int64.self, forKey: .receiptNumber)
        shop = try container.decode(Shop.self, forKey: .shop)
        billId = try container.decode(String.self, forKey: .billId)
        paidAt = try container.decode(String.self, forKey: .paidAt)
        lines = try container.decode([BillLine].self, forKey: .lines)
        subtotalMinor = try container.decode(Int64.self, forKey: .subtotalMinor)
        discount = try container.decodeIfPresent(Discount.self, forKey: .discount)
        discountMinor = try container.decode(Int64.self, forKey: .discountMinor)
        tax = try container.decode(ReceiptTax.self, forKey: .tax)
        totalMinor = try container.decode(Int64.self, forKey: .totalMinor)
        tipMinor = try container.decode(Int64.self, forKey: .tipMinor)
        chargedMinor = try container.decode(Int64.self, forKey: .chargedMinor)
        currency = try container.decode(String.self, forKey: .currency)
        payment = try container.decode(Payment.self, forKey: .payment)
        payments = try container.decodeIfPresent([Payment].self, forKey: .payments) ?? [payment]
        refunds = try container.decode([Refund].self, forKey: .refunds)
        refundedMinor = try container.decode(Int64.self, forKey: .refundedMinor)
    }
}
