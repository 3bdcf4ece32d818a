import RoutemapDomain
import Testing

@Suite("Tax rate: basis points, half-to-even rounding")
struct TaxRateTests {
    @Test("only 0 to 10 000 basis points are rates", arguments: [(-1, false), (0, true), (875, true), (10_000, true), (10_001, false)])
    func range(basisPoints: Int, valid: Bool) {
        #expect((TaxRate(basisPoints: basisPoints) != nil) == valid)
    }

    /// At 50 %, amount / 2: halves show the rounding. Half to even: 0.5 → 0, 1.5 → 2, 2.5 → 2, 3.5 → 4.
    @Test(
        "halves round to the even neighbour",
        arguments: [(0, 0), (1, 0), (2, 1), (3, 2), (5, 2), (7, 4), (9, 4), (11, 6), (101, 50), (103, 52)] as [(Int64, Int64)])
    func halfToEven(amount: Int64, expectedTax: Int64) {
        #expect(TaxRate(basisPoints: 5_000)!.tax(onMinor: amount) == expectedTax)
    }

    /// 8.75 % of: 100 → 8.75 → 9; 40 → 3.5 → 4; 120 → 10.5 → 10; 8 → 0.7 → 1; 400 → 35 exactly;
    /// 5 → 0.4375 → 0; 475 → 41.5625 → 42.
    @Test(
        "8.75 % rounds to the nearest cent, halves to even",
        arguments: [(100, 9), (40, 4), (120, 10), (8, 1), (400, 35), (5, 0), (475, 42), (0, 0)] as [(Int64, Int64)])
    func salesTax(amount: Int64, expectedTax: Int64) {
        #expect(TaxRate(basisPoints: 875)!.tax(onMinor: amount) == expectedTax)
    }

    @Test("0 % and 100 % are exact")
    func extremes() {
        #expect(TaxRate(basisPoints: 0)!.tax(onMinor: 123_456) == 0)
        #expect(TaxRate(basisPoints: 10_000)!.tax(onMinor: 123_456) == 123_456)
    }

    @Test("exact for the largest amounts: no overflow, no floating point")
    func largestAmounts() {
        #expect(TaxRate(basisPoints: 10_000)!.tax(onMinor: .max) == .max)
        // (2^63 − 1) / 2 = 4 611 686 018 427 387 903.5: the even neighbour is …904.
        #expect(TaxRate(basisPoints: 5_000)!.tax(onMinor: .max) == 4_611_686_018_427_387_904)
        // 1 bps of 2^63 − 1 = 922 337 203 685 477.5807 → …478.
        #expect(TaxRate(basisPoints: 1)!.tax(onMinor: .max) == 922_337_203_685_478)
    }

    @Test("agrees with an independent half-to-even computation on many amounts and rates")
    func agreesWithReference() {
        for basisPoints in [1, 7, 875, 1_000, 2_500, 3_333, 9_999] {
            let rate = TaxRate(basisPoints: basisPoints)!
            for amount in Int64(0)...2_000 {
                #expect(rate.tax(onMinor: amount) == referenceTax(amount, Int64(basisPoints)))
            }
        }
    }

    /// amount × bps / 10 000, half to even, written the long way.
    private func referenceTax(_ amount: Int64, _ basisPoints: Int64) -> Int64 {
        let numerator = amount * basisPoints
        let floor = numerator / 10_000
        let remainder = numerator % 10_000
        if remainder * 2 > 10_000 { return floor + 1 }
        if remainder * 2 < 10_000 { return floor }
        return floor.isMultiple(of: 2) ? floor : floor + 1
    }
}
