import Foundation
import RoutemapDomain
import Testing

@Suite("Stored timestamps: ISO 8601 UTC with milliseconds")
struct TimestampTests {
    @Test(
        "known instants",
        arguments: [
            (0, "1970-01-01T00:00:00.000Z"),
            (0.001, "1970-01-01T00:00:00.001Z"),
            (-0.001, "1969-12-31T23:59:59.999Z"),
            (951_782_400, "2000-02-29T00:00:00.000Z"),
            (1_709_251_199.999, "2024-02-29T23:59:59.999Z"),
            (1_732_262_100.123, "2024-11-22T07:55:00.123Z"),
            (4_102_444_800, "2100-01-01T00:00:00.000Z"),
        ] as [(TimeInterval, String)])
    func known(seconds: TimeInterval, text: String) throws {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(Timestamp.format(date) == text)
        #expect(Timestamp.parse(text) == date)
    }

    @Test("rounds to the nearest millisecond")
    func rounding() {
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1.2344)) == "1970-01-01T00:00:01.234Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1.2346)) == "1970-01-01T00:00:01.235Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 59.9999)) == "1970-01-01T00:01:00.000Z")
    }

    /// Foundation truncates to the millisecond where this rounds, and `Date` keeps time since
    /// 2001, so an instant made from whole milliseconds since 1970 can sit a hair below them.
    /// Instants 0.3 ms past a millisecond give the same text either way.
    @Test("agrees with Foundation's ISO 8601 formatter and round-trips, over many instants")
    func agreesWithFoundation() throws {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let milliseconds = Int64.random(in: 0...4_102_444_800_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = Timestamp.format(date)
            #expect(text == Date(timeIntervalSince1970: Double(milliseconds) / 1000 + 0.000_3).formatted(style))
            #expect(Timestamp.parse(text) == date)
        }
    }

    @Test(
        "anything but the exact shape is refused",
        arguments: [
            "", "2024-11-22T07:55:00Z", "2024-11-22T07:55:00.123", "2024-11-22 07:55:00.123Z", "2024-11-22T07:55:00.123+00:00",
            "2023-02-29T00:00:00.000Z", "2024-13-01T00:00:00.000Z", "2024-11-31T00:00:00.000Z", "2024-11-22T24:00:00.000Z",
            "2024-11-22T07:60:00.000Z", "2024-11-22T07:55:60.000Z", "2024-11-22T07:55:00.12aZ", "2024-00-10T00:00:00.000Z",
        ])
    func malformed(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }
}
