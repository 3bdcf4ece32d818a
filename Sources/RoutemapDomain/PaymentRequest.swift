/// What the cashier asks to pay: the method, the amount (the bill's amount due, or part of it
/// when `partial`), the customer's tip on top of it and, for cash, what the customer handed over.
public struct PaymentRequest: Sendable, Hashable {
    /// The tips a payment may carry, in minor units: 0 (none) up to 10^13, the most an amount
    /// may be, so the amount and tip together stay far from `Int64` overflow in any sum.
    public static let tipRange: ClosedRange<Int64> = 0...10_000_000_000_000

    public let method: PaymentMethod
    /// Without ``partial``, must equal the bill's ``Bill/dueMinor`` (its total when nothing is paid
    /// yet): the client confirms the amount it showed. With it, 1 up to the amount due.
    public let amountMinor: Int64
    /// One part of a split tender: the amount may be less than what is due, and the bill stays
    /// checked out until its payments add up to its total.
    public let partial: Bool
    /// Cash handed over; `nil` means exactly `amountMinor + tipMinor`. For card, omit it or send
    /// `amountMinor + tipMinor`.
    public let tenderedMinor: Int64?
    /// The tip, on top of the amount: not a sale (no tax, not in the takings, not refundable).
    /// Always within ``tipRange``.
    public let tipMinor: Int64

    /// A request without a tip, for the whole amount due.
    public init(method: PaymentMethod, amountMinor: Int64, tenderedMinor: Int64? = nil) {
        self.init(method: method, amountMinor: amountMinor, tenderedMinor: tenderedMinor, checkedTip: 0, partial: false)
    }

    /// A request with a tip of `tipMinor`, `partial` or for the whole amount due; throws
    /// ``InvalidInput`` (`tipMinor`) unless the tip is within ``tipRange``, and (`amountMinor`)
    /// for a partial amount below 1 (a part of nothing pays nothing).
    public init(
        method: PaymentMethod, amountMinor: Int64, tenderedMinor: Int64? = nil, tipMinor: Int64, partial: Bool = false
    ) throws(InvalidInput) {
        guard Self.tipRange.contains(tipMinor) else {
            throw InvalidInput(field: "tipMinor", rule: "between \(Self.tipRange.lowerBound) and \(Self.tipRange.upperBound)")
        }
        guard !partial || amountMinor >= 1 else { throw InvalidInput(field: "amountMinor", rule: "at least 1 for a partial payment") }
        self.init(method: method, amountMinor: amountMinor, tenderedMinor: tenderedMinor, checkedTip: tipMinor, partial: partial)
    }

    private init(method: PaymentMethod, amountMinor: Int64, tenderedMinor: Int64?, checkedTip: Int64, partial: Bool) {
        self.method = method
        self.amountMinor = amountMinor
        self.tenderedMinor = tenderedMinor
        self.tipMinor = checkedTip
        self.partial = partial
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
    /// The percentages a café's customers usually tip, which the order summary offers unless the
    /// shop chose others (``Till/suggestedTipPercents``).
    public static let suggestedTipPercents = [10, 15, 20]

    /// The most percentages a shop may have the order summary offer: one row of buttons.
    public static let maxSuggestedTips = 5

    /// `text` as the shop's suggested tips: `none` (no suggestions), or 1 to ``maxSuggestedTips``
    /// distinct whole percentages from 1 to 100, comma-separated without spaces (`10,15,20`), in
    /// the order given. `nil` for anything else.
    public static func suggestedTipPercents(from text: String) -> [Int]? {
        if text == "none" { return [] }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= maxSuggestedTips else { return nil }
        var percents: [Int] = []
        for part in parts {
            // Digits only: `Int` would also take a sign.
            guard part.allSatisfy(\.isWholeNumber), part.allSatisfy(\.isASCII), let percent = Int(part), (1...100).contains(percent),
                !percents.contains(percent)
            else {
                return nil
            }
            percents.append(percent)
        }
        return percents
    }

    /// The tips to offer on this bill: each of `percents` (0 to 100) of ``dueMinor`` (the total,
    /// less what earlier payments of a split bill paid: the tip is on what is still to pay),
    /// rounded half to even to the minor unit as tax is (``TaxRate/tax(onMinor:)``), leaving out
    /// any that pay would refuse (outside ``PaymentRequest/tipRange``).
    public func suggestedTips(percents: [Int] = Bill.suggestedTipPercents) -> [SuggestedTip] {
        let due = dueMinor
        return percents.compactMap { percent in
            guard percent <= 100, let rate = TaxRate(basisPoints: percent * 100) else { return nil }
            let tip = rate.tax(onMinor: due)
            return PaymentRequest.tipRange.contains(tip) ? SuggestedTip(percent: percent, tipMinor: tip) : nil
        }
    }
}
