import Foundation

/// Timestamps as stored and as sent on the wire: ISO 8601 UTC text with milliseconds,
/// `2025-11-22T07:55:00.123Z`.
///
/// Fixed width, so text order is time order (years 0000–9999) and SQL can sort on it. Written
/// with integer calendar arithmetic (no `Calendar`, locale or time zone involved).
package enum Timestamp {
    /// `date` as `YYYY-MM-DDTHH:MM:SS.sssZ`, rounded to the nearest millisecond.
    package static func format(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        // Floor division, so instants before 1970 fall on the right day.
        let millisecondsPerDay: Int64 = 86_400_000
        let remainder = milliseconds % millisecondsPerDay
        let days = milliseconds / millisecondsPerDay - (remainder < 0 ? 1 : 0)
        let millisecondOfDay = remainder < 0 ? remainder + millisecondsPerDay : remainder
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let seconds = millisecondOfDay / 1000
        guard (0...9999).contains(year) else {
            // Outside the fixed width: not sortable as text, but still readable.
            return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
                + pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2) + "."
                + pad(millisecondOfDay % 1000, 3) + "Z"
        }
        // Digits written into 24 bytes: this runs for every row written.
        var text: [UInt8] = Array("0000-00-00T00:00:00.000Z".utf8)
        func put(_ value: Int64, at end: Int, width: Int) {
            var value = value
            for index in stride(from: end, to: end - width, by: -1) {
                text[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(year, at: 3, width: 4)
        put(month, at: 6, width: 2)
        put(day, at: 9, width: 2)
        put(seconds / 3600, at: 12, width: 2)
        put(seconds / 60 % 60, at: 15, width: 2)
        put(seconds % 60, at: 18, width: 2)
        put(millisecondOfDay % 1000, at: 22, width: 3)
        return String(decoding: text, as: UTF8.self)
    }

    /// The instant `text` names, or `nil` unless it has exactly the shape ``format(_:)`` writes.
    package static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: "."), bytes[23] == UInt8(ascii: "Z"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]),
            let second = number(bytes[17..<19]), let millisecond = number(bytes[20..<23]),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let milliseconds = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millisecond
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// The instant an RFC 3339 date-time names (what clients send, where ``parse(_:)`` reads only
    /// the stored form), `2026-11-25T00:00:00+01:00` or
    /// `2026-11-24T23:00:00.000Z`: a date, `T`, a time with seconds, an optional fraction of a
    /// second, and `Z` or an offset `±HH:MM` (RFC 3339 section 5.6; `t` and `z` as it allows).
    /// `nil` for anything else, for a date or time that does not exist (February 30, 24:00, a
    /// leap second's `:60`, which routemap's clock never shows), for a fraction finer than a
    /// millisecond (instants are kept to the millisecond; rounding one would move it), and for
    /// an instant outside the years 0000 to 9999 in UTC.
    package static func instant(rfc3339 text: String) -> Date? {
        let bytes = Array(text.utf8)
        // Fixed fields: YYYY-MM-DDTHH:MM:SS at 0..<19.
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]), let day = number(bytes[8..<10]),
            let hour = number(bytes[11..<13]), let minute = number(bytes[14..<16]), let second = number(bytes[17..<19]),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var millisecond: Int64 = 0
        if bytes[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            let digits = bytes[start..<index]
            // At least one digit; past the third, only zeros.
            guard !digits.isEmpty, digits.dropFirst(3).allSatisfy({ $0 == UInt8(ascii: "0") }) else { return nil }
            for position in 0..<3 {
                let digit = position < digits.count ? Int64(digits[start + position] - UInt8(ascii: "0")) : 0
                millisecond = millisecond * 10 + digit
            }
        }
        guard index < bytes.count else { return nil }
        var offsetMinutes: Int64 = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                let hours = number(bytes[(index + 1)..<(index + 3)]), let minutes = number(bytes[(index + 4)..<(index + 6)]),
                hours < 24, minutes < 60
            else { return nil }
            offsetMinutes = (hours * 60 + minutes) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        let localMinutes = (daysSinceEpoch(year: year, month: month, day: day) * 24 + hour) * 60 + minute
        let milliseconds = ((localMinutes - offsetMinutes) * 60 + second) * 1000 + millisecond
        // 0000-01-01T00:00:00Z up to 9999-12-31T23:59:59.999Z: what fixed-width UTC text holds.
        let earliest = daysSinceEpoch(year: 0, month: 1, day: 1) * 86_400_000
        let end = daysSinceEpoch(year: 10_000, month: 1, day: 1) * 86_400_000
        guard (earliest..<end).contains(milliseconds) else { return nil }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, H. Hinnant's algorithms)

    private static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = (adjustedYear >= 0 ? adjustedYear : adjustedYear - 399) / 400
        let yearOfEra = adjustedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        return value
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
