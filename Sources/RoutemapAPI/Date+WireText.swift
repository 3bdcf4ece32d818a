import Foundation

extension Date {
    /// ISO 8601 in UTC with milliseconds, as every time on the wire is written (every app's).
    package var wireText: String {
        formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
