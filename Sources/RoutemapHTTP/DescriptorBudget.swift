#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many connections the process's open-file limit (`RLIMIT_NOFILE`) allows, and how far to
/// raise its soft limit: every connection holds a socket, and past the limit `accept` fails.
///
/// The soft limit is raised as far as the connection limit needs, up to the hard limit (not
/// all the way to a hard limit in the millions: code that walks every possible descriptor, as
/// spawning a process may, would pay for it). When even the hard limit is too low, the
/// connection limit is lowered to fit instead.
struct DescriptorBudget: Equatable, Sendable {
    /// The connection limit to give libmicrohttpd.
    var connectionLimit: Int
    /// The soft open-file limit the plan needs (the current one when enough).
    var softLimit: UInt64

    /// Descriptors kept for everything but client connections: stdio, the listening socket,
    /// an epoll descriptor and an event descriptor per worker thread, the database, its WAL
    /// and shared memory, logs, and headroom.
    static func reserve(threads: Int) -> Int { 64 + 4 * threads }

    /// The plan for `connectionLimit` connections with `threads` worker threads, under the
    /// current `soft` and `hard` open-file limits.
    static func plan(connectionLimit: Int, threads: Int, soft: UInt64, hard: UInt64) -> DescriptorBudget {
        let reserve = UInt64(reserve(threads: threads))
        let needed = UInt64(connectionLimit) + reserve
        if needed <= soft { return DescriptorBudget(connectionLimit: connectionLimit, softLimit: soft) }
        let raised = max(soft, min(hard, needed))
        // With very few descriptors, keep half for connections rather than none.
        let kept = min(reserve, raised / 2)
        let fits = Int(clamping: raised - kept)
        return DescriptorBudget(connectionLimit: max(1, min(connectionLimit, fits)), softLimit: raised)
    }

    /// The current (soft, hard) open-file limits.
    static func currentLimits() -> (soft: UInt64, hard: UInt64)? {
        var limits = rlimit()
        guard getrlimit(Self.resource, &limits) == 0 else { return nil }
        return (UInt64(limits.rlim_cur), UInt64(limits.rlim_max))
    }

    /// Sets the soft open-file limit to `soft`, keeping the hard one. Returns `errno` on failure.
    static func setSoftLimit(_ soft: UInt64) -> Int32? {
        var limits = rlimit()
        guard getrlimit(Self.resource, &limits) == 0 else { return errno }
        limits.rlim_cur = rlim_t(soft)
        return setrlimit(Self.resource, &limits) == 0 ? nil : errno
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
