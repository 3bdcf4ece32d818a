import Foundation

extension Date {
    /// This instant rounded to the nearest millisecond: the precision bills and payments keep,
    /// so a value survives a round trip through storage unchanged.
    package var roundedToMilliseconds: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
