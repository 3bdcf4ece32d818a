/// A sales-tax rate in basis points (875 = 8.75 %), from 0 to 10 000 (100 %).
///
/// Basis points keep the rate an integer, so tax is computed exactly, never in floating point.
public struct TaxRate: Sendable, Hashable {
    /// Hundredths of a percent: 875 means 8.75 %.
    public let basisPoints: Int

    /// The largest rate, 100 %.
    public static let maximumBasisPoints = 10_000

    /// The rate, or `nil` outside 0...10 000 basis points.
    public init?(basisPoints: Int) {
        guard (0...Self.maximumBasisPoints).contains(basisPoints) else { return nil }
        self.basisPoints = basisPoints
    }

    /// The tax on `amount` minor units: `amount × basisPoints / 10 000`, rounded half to even
    /// (banker's rounding, so halves do not bias totals upwards).
    ///
    /// Exact for every `Int64` amount: the product is formed in 128 bits, and the result never
    /// exceeds `amount` in magnitude because the rate is at most 100 %.
    public func tax(onMinor amount: Int64) -> Int64 {
        let divisor = Int64(Self.maximumBasisPoints)
        let product = amount.multipliedFullWidth(by: Int64(basisPoints))
        // |quotient| <= |amount|, so the division cannot overflow; it truncates towards zero and
        // the remainder takes the sign of `amount`.
        let (quotient, remainder) = divisor.dividingFullWidth(product)
        let twiceRemainder = remainder.magnitude * 2
        let roundsAway: Bool
        if twiceRemainder > divisor.magnitude {
            roundsAway = true
        } else if twiceRemainder == divisor.magnitude {
            roundsAway = quotient % 2 != 0
        } else {
            roundsAway = false
        }
        guard roundsAway else { return quotient }
        return amount < 0 ? quotient - 1 : quotient + 1
    }
}
