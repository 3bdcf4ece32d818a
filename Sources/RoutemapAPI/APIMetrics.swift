import CoreMetrics
import RoutemapDomain

/// The API's own metrics, through swift-metrics (the program chooses the backend; without one
/// they cost next to nothing). Request counts and latencies come from the server's
/// `RequestObserver`, not from here.
package enum APIMetrics {
    /// Requests refused 429 by the per-device rate limit.
    static let rateLimited = Counter(label: "routemap_rate_limited_total")

    private static let payments = Dictionary(
        uniqueKeysWithValues: PaymentMethod.allCases.map { method in
            (method, (count: Counter(label: "routemap_payments_total", dimensions: [("method", method.rawValue)]),
                amount: Counter(label: "routemap_payment_amount_minor_total", dimensions: [("method", method.rawValue)])))
        })

    /// Makes every metric now, so that a scrape shows each at 0 before it first moves.
    static func register() {
        _ = rateLimited
        _ = payments
    }

    /// Counts a payment that committed (not a replayed answer): one more, and its amount in
    /// minor units, under its method.
    package static func committed(_ payment: Payment) {
        guard let counters = payments[payment.method] else { return }
        counters.count.increment()
        counters.amount.increment(by: payment.amountMinor)
    }
}
