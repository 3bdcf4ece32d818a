/// A discount on a whole bill (a staff discount, a regular's 10 %, an apology): a percentage of
/// the subtotal or an amount off it, with the reason the cashier gave. A bill has at most one
/// (``Bill/discount``); what it takes off is worked out from the bill's lines every time they
/// change (``minor(off:)``), so a percentage follows the lines and an amount never takes off
/// more than they hold.
public struct BillDiscount: Sendable, Hashable {
    /// What is taken off: a rate of the subtotal, or a fixed amount.
    public enum Kind: Sendable, Hashable {
        /// A share of the subtotal in basis points (1 to 10 000), rounded half to even as tax is.
        case percent(TaxRate)
        /// An amount in minor units (at least 1); no more than the subtotal is taken off.
        case amount(Int64)
    }

    public let kind: Kind
    /// Why it was given: ``BillVoiding``'s rule for a reason.
    public let reason: String

    /// The basis points a percentage discount may take: 1 (0.01 %) to 10 000 (all of it).
    public static let percentRange = 1...TaxRate.maximumBasisPoints
    /// The amounts an amount discount may take: 1 to 10^13 minor units, the range of every
    /// other amount a till takes (``PaymentRequest/tipRange``'s bound).
    public static let amountRange: ClosedRange<Int64> = 1...PaymentRequest.tipRange.upperBound

    /// A percentage discount of `basisPoints` (1 to 10 000). Throws ``InvalidInput`` naming
    /// `percentBps` or `reason` when one breaks its rule.
    public init(percentBasisPoints basisPoints: Int, reason: String) throws(InvalidInput) {
        guard Self.percentRange.contains(basisPoints), let rate = TaxRate(basisPoints: basisPoints) else {
            throw InvalidInput(field: "percentBps", rule: "between \(Self.percentRange.lowerBound) and \(Self.percentRange.upperBound)")
        }
        self.kind = .percent(rate)
        self.reason = try BillVoiding.checkedReason(reason)
    }

    /// An amount discount of `amountMinor` (1 to 10^13). Throws ``InvalidInput`` naming
    /// `amountMinor` or `reason` when one breaks its rule.
    public init(amountMinor: Int64, reason: String) throws(InvalidInput) {
        guard Self.amountRange.contains(amountMinor) else {
            throw InvalidInput(field: "amountMinor", rule: "between \(Self.amountRange.lowerBound) and \(Self.amountRange.upperBound)")
        }
        self.kind = .amount(amountMinor)
        self.reason = try BillVoiding.checkedReason(reason)
    }

    /// The percentage in basis points, for a percentage discount.
    public var percentBasisPoints: Int? {
        guard case .percent(let rate) = kind else { return nil }
        return rate.basisPoints
    }

    /// The amount asked for, for an amount discount (what is taken off may be less: ``minor(off:)``).
    public var amountMinor: Int64? {
        guard case .amount(let amount) = kind else { return nil }
        return amount
    }

    /// What the discount takes off a subtotal of `subtotal` (at least 0) minor units: the
    /// percentage of it rounded half to even (``TaxRate/tax(onMinor:)``), or the amount, at most
    /// `subtotal`. Always within `0...subtotal`.
    public func minor(off subtotal: Int64) -> Int64 {
        switch kind {
        case .percent(let rate): rate.tax(onMinor: subtotal)
        case .amount(let amount): min(amount, subtotal)
        }
    }

    /// The discount's share of `subtotal` in basis points, rounded up (a till's limit is never
    /// passed by rounding): its percentage, or what the amount takes off over `subtotal`. An
    /// amount off an empty bill (subtotal 0) counts as all of it, 10 000.
    public func share(ofSubtotal subtotal: Int64) -> Int {
        switch kind {
        case .percent(let rate):
            return rate.basisPoints
        case .amount(let amount):
            guard subtotal > 0 else { return TaxRate.maximumBasisPoints }
            // min(amount, subtotal) ≤ 10^13, so × 10 000 stays below 10^17: no overflow.
            let (quotient, remainder) = (min(amount, subtotal) * Int64(TaxRate.maximumBasisPoints)).quotientAndRemainder(dividingBy: subtotal)
            return Int(quotient) + (remainder > 0 ? 1 : 0)
        }
    }
}

extension BillDiscount {
    /// The discount a store's columns hold (migration 0021): `nil` when none is set; throws
    /// ``InvalidInput`` when they do not make one discount (both kinds, a kind without a reason
    /// or the other way round, a value out of its range).
    public static func stored(percentBasisPoints: Int?, amountMinor: Int64?, reason: String?) throws(InvalidInput) -> BillDiscount? {
        switch (percentBasisPoints, amountMinor, reason) {
        case (nil, nil, nil): return nil
        case (let basisPoints?, nil, let reason?): return try BillDiscount(percentBasisPoints: basisPoints, reason: reason)
        case (nil, let amount?, let reason?): return try BillDiscount(amountMinor: amount, reason: reason)
        default: throw InvalidInput(field: "discount", rule: "one of a percentage or an amount, with a reason, or none of them")
        }
    }
}

extension Bill {
    /// Why totals a store kept for this bill are not the ones its lines and discount make, or
    /// `nil` when they are. A store keeps the discounted subtotal (``discountedSubtotalMinor``)
    /// and what the discount took off (``discountMinor``) apart.
    public func storedTotalsMismatch(subtotalMinor: Int64, discountMinor: Int64, taxMinor: Int64, totalMinor: Int64) -> String? {
        // Every bill read asks: compared in place, the message built only for a mismatch.
        guard subtotalMinor != discountedSubtotalMinor || discountMinor != self.discountMinor || taxMinor != self.taxMinor
            || totalMinor != self.totalMinor
        else { return nil }
        return "stored totals \(subtotalMinor)/\(discountMinor)/\(taxMinor)/\(totalMinor) (subtotal less discount/discount/tax/total) "
            + "do not match its lines and discount"
    }
}
