import Foundation
import RoutemapDomain

extension Date {
    /// ISO 8601 in UTC with milliseconds, as every time on the wire is written (every app's):
    /// the same text the stores keep (`Timestamp`), `2026-01-02T03:04:05.678Z`.
    package var wireText: String {
        Timestamp.format(self)
    }
}
