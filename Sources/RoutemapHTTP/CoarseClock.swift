#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A monotonic clock cheap enough to read on every request, for deadlines and freshness checks
/// measured in seconds: on Linux it reads `CLOCK_MONOTONIC_COARSE` (a few milliseconds'
/// resolution, no system call), elsewhere `CLOCK_MONOTONIC`. Durations to report, such as a
/// request's latency, want `ContinuousClock` instead.
public enum CoarseClock {
    /// Nanoseconds since an unspecified start, never going back.
    public static func nanoseconds() -> Int64 {
        var time = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        #else
        clock_gettime(CLOCK_MONOTONIC, &time)
        #endif
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
