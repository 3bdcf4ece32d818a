import Foundation

extension Date {
    /// The instant an RFC 3339 date-time names, `2026-11-25T00:00:00+01:00` or
    /// `2026-11-24T23:00:00.000Z`: a date, `T`, a time with seconds, an optional fraction of a
    /// second, and `Z` or an offset `±HH:MM` (RFC 3339 section 5.6; `t` and `z` as it allows).
    /// `nil` for anything else, for a date or time that does not exist (February 30, 24:00, a
    /// leap second's `:60`, which routemap's clock never shows), for a fraction finer than a
    /// millisecond (instants are kept to the millisecond; rounding one would move it), and for
    /// an instant outside the years 0000 to 9999 in UTC.
    package init?(rfc3339 text: String) {
        let bytes = Array(text.utf8)
        // Fixed fields: YYYY-MM-DDTHH:MM:SS at 0..<19.
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]), let day = Self.number(bytes[8..<10]),
            let hour = Self.number(bytes[11..<13]), let minute = Self.number(bytes[14..<16]), let second = Self.number(bytes[17..<19]),
            (1...12).contains(month), (1...Self.days(inMonth: month, year: year)).contains(day), hour < 24, minute < 60, second < 60
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
                let hours = Self.number(bytes[(index + 1)..<(index + 3)]), let minutes = Self.number(bytes[(index + 4)..<(index + 6)]),
                hours < 24, minutes < 60
            else { return nil }
            offsetMinutes = (hours * 60 + minutes) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        let localMinutes = (Self.daysSinceEpoch(year: year, month: month, day: day) * 24 + hour) * 60 + minute
        let milliseconds = ((localMinutes - offsetMinutes) * 60 + second) * 1000 + millisecond
        // 0000-01-01T00:00:00Z up to 9999-12-31T23:59:59.999Z: what fixed-width UTC text holds.
        let earliest = Self.daysSinceEpoch(year: 0, month: 1, day: 1) * 86_400_000
        let end = Self.daysSinceEpoch(year: 10_000, month: 1, day: 1) * 86_400_000
        guard (earliest..<end).contains(milliseconds) else { return nil }
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        return value
    }

    private static func days(inMonth month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given date of the proleptic Gregorian calendar (H. Hinnant's
    /// algorithm, as the SQLite store's timestamps use).
    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = (adjustedYear >= 0 ? adjustedYear : adjustedYear - 399) / 400
        let yearOfEra = adjustedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
