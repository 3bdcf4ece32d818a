import RoutemapDomain
import Testing

@Suite("Currency codes")
struct CurrencyTests {
    @Test("three uppercase ASCII letters are a currency", arguments: ["USD", "EUR", "JPY", "XAU"])
    func valid(code: String) {
        #expect(Currency(rawValue: code)?.rawValue == code)
        #expect(Currency(rawValue: code)?.description == code)
    }

    @Test("anything else is not", arguments: ["", "US", "USDX", "usd", "Usd", "U$D", "US1", "ÜSD", " USD", "ＵＳＤ"])
    func invalid(code: String) {
        #expect(Currency(rawValue: code) == nil)
    }
}
