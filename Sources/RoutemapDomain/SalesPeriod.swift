import Foundation

/// The period a sales report covers: the instants from ``from`` (included) up to ``to``
/// (excluded), so that consecutive periods (one day, the next) count every payment once. The
/// caller decides what a day is (the shop's midnight in its own time zone); the domain knows
/// only instants, kept to the millisecond as payments' and voids' are.
public struct SalesPeriod: Sendable, Hashable {
    /// The first instant in the period.
    public let from: Date
    /// The first instant after the period.
    public let to: Date

    /// The longest period, in days (a leap year): longer ones are refused rather than summed, so
    /// a report stays one bounded scan of the indexes.
    public static let maxDays = 366

    /// Why a period cannot be reported on.
    public enum Refusal: Error, Sendable, Equatable {
        /// `to` is not after `from`.
        case empty
        /// More than ``SalesPeriod/maxDays`` days.
        case tooLong
    }

    /// The period [`from`, `to`), both rounded to the millisecond. Throws `empty` unless `to` is
    /// after `from`, `tooLong` when it is longer than ``maxDays`` days.
    public init(from: Date, to: Date) throws(Refusal) {
        let from = from.roundedToMilliseconds, to = to.roundedToMilliseconds
        let length = Self.milliseconds(to) - Self.milliseconds(from)
        guard length > 0 else { throw .empty }
        guard length <= Int64(Self.maxDays) * 86_400_000 else { throw .tooLong }
        self.from = from
        self.to = to
    }

    /// Whether `date` is in the period: from `from` on, before `to`.
    public func contains(_ date: Date) -> Bool {
        from <= date && date < to
    }

    /// `date` in whole milliseconds since 1970 (exact for the rounded instants compared here).
    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}
