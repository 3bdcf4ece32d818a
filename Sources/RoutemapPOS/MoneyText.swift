import RoutemapDomain

/// Amounts as people read them on a declarative screen: "12.34 USD". Display only; money is
/// always computed in minor units.
enum MoneyText {
    static func format(_ minor: Int64, _ currency: Currency) -> String {
        let digits = exponent(of: currency)
        let sign = minor < 0 ? "-" : ""
        let magnitude = minor.magnitude
        guard digits > 0 else { return "\(sign)\(magnitude) \(currency)" }
        var unit: UInt64 = 1
        for _ in 0..<digits { unit *= 10 }
        let fraction = String(magnitude % unit)
        return "\(sign)\(magnitude / unit).\(String(repeating: "0", count: digits - fraction.count))\(fraction) \(currency)"
    }

    /// A rate in basis points as a percentage: 1000 is "10%", 1250 "12.5%", 5 "0.05%".
    static func percent(basisPoints: Int) -> String {
        var fraction = basisPoints % 100 == 0 ? "" : String(basisPoints % 100)
        if !fraction.isEmpty { fraction = "." + String(repeating: "0", count: 2 - fraction.count) + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(basisPoints / 100)\(fraction)%"
    }

    /// ISO 4217 minor-unit digits: 2 for most currencies.
    private static func exponent(of currency: Currency) -> Int {
        switch currency.rawValue {
        case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF": 0
        case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND": 3
        default: 2
        }
    }
}
