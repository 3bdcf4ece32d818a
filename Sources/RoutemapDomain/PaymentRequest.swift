/// What the cashier asks to pay: the method, the amount (which must equal the bill's total), the
/// customer's tip on top of it and, for cash, what the customer handed over.
public struct PaymentRequest: Sendable, Hashable {
    /// The tips a payment may carry, in minor units: 0 (none) up to 10^13, the most an amount
    /// may be, so the amount and tip together stay far from `Int64` overflow in any sum.
    public static let tipRange: ClosedRange<Int64> = 0...10_000_000_000_000

    public let method: PaymentMethod
    /// Must equal the bill's `totalMinor`: the client confirms the total it showed.
    public let amountMinor: Int64
    /// Cash handed over; `nil` means exactly `amountMinor + tipMinor`. For card, omit it or send
    /// `amountMinor + tipMinor`.
    public let tenderedMinor: Int64?
    /// The tip, on top of the amount: not a sale (no tax, not in the takings, not refundable).
    /// Always within ``tipRange``.
    public let tipMinor: Int64

    /// A request without a tip.
    public init(method: PaymentMethod, amountMinor: Int64, tenderedMinor: Int64? = nil) {
        self.init(method: method, amountMinor: amountMinor, tenderedMinor: tenderedMinor, checkedTip: 0)
    }

    /// A request with a tip of `tipMinor`; throws ``InvalidInput`` (`tipMinor`) unless it is
    /// within ``tipRange``.
    public init(method: PaymentMethod, amountMinor: Int64, tenderedMinor: Int64? = nil, tipMinor: Int64) throws(InvalidInput) {
        guard Self.tipRange.contains(tipMinor) else {
            throw InvalidInput(field: "tipMinor", rule: "between \(Self.tipRange.lowerBound) and \(Self.tipRange.upperBound)")
        }
        self.init(method: method, amountMinor: amountMinor, tenderedMinor: tenderedMinor, checkedTip: tipMinor)
    }

    private init(method: PaymentMethod, amountMinor: Int64, tenderedMinor: Int64?, checkedTip: Int64) {
        self.method = method
        self.amountMinor = amountMinor
        self.tenderedMinor = tenderedMinor
        self.tipMinor = checkedTip
    }
}

/// A tip the order summary offers: `percent` of the bill's total, in minor units.
public struct SuggestedTip: Sendable, Hashable {
    public let percent: Int
    public let tipMinor: Int64

    public init(percent: Int, tipMinor: Int64) {
        self.percent = percent
        self.tipMinor = tipMinor
    }
}

extension Bill {
    /// The percentages of the total a café's customers usually tip, which the order summary
    /// offers.
    public static let suggestedTipPercents = [10, 15, 20]

    /// The tips to offer on this bill: each of `percents` (0 to 100) of ``totalMinor``, rounded
    /// half to even to the minor unit as tax is (``TaxRate/tax(onMinor:)``), leaving out any
    /// that pay would refuse (outside ``PaymentRequest/tipRange``).
    public func suggestedTips(percents: [Int] = Bill.suggestedTipPercents) -> [SuggestedTip] {
        percents.compactMap { percent in
            guard percent <= 100, let rate = TaxRate(basisPoints: percent * 100) else { return nil }
            let tip = rate.tax(onMinor: totalMinor)
            return PaymentRequest.tipRange.contains(tip) ? SuggestedTip(percent: percent, tipMinor: tip) : nil
        }
    }
}
