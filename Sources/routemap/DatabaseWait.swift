import Foundation
import Logging
import RoutemapDomain

#if canImport(Glibc)
import Glibc
#endif

/// How `serve` and `migrate` wait at start-up for a PostgreSQL server that cannot be reached
/// yet (`--database-wait`): containers start in any order, and a node or an init container
/// started before its database should come up with it, not exit at once.
///
/// Each attempt that finds the server unreachable (``StoreUnavailable``) is logged on one line,
/// with the database's URL without its password, and tried again after a pause that doubles
/// from a quarter of a second up to five seconds, until `limit` has gone by: then the last
/// attempt's error is thrown (the command exits 75, in one line). Anything else (a database
/// that does not exist, a bad migration) is thrown at once: waiting would not mend it.
struct DatabaseWait {
    /// How long to keep trying (zero: one attempt).
    let limit: Duration
    /// The database, without its password.
    let location: String
    let logger: Logger
    /// Waits up to the given pause for a reason to stop; returns the signal that came, if one did.
    let pause: (Duration) -> Int32?

    /// The longest pause between attempts.
    static let longestPause: Duration = .seconds(5)

    /// A wait whose pauses end early on SIGTERM or SIGINT, which the calling thread (and every
    /// thread started after it) has blocked (`SignalSet.block()`, as `serve` does): the signal is
    /// taken from the pending ones with `sigtimedwait`, so a stop asked for during the wait ends
    /// it within one attempt (a connect attempt waits at most its 5 s connect timeout).
    static func stoppable(limit: Duration, location: String, logger: Logger) -> DatabaseWait {
        DatabaseWait(limit: limit, location: location, logger: logger) { pause in
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGTERM)
            sigaddset(&set, SIGINT)
            let nanoseconds = max(0, pause.nanoseconds)
            var timeout = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
            let signal = sigtimedwait(&set, nil, &timeout)
            return signal > 0 ? signal : nil
        }
    }

    /// A wait whose pauses are plain sleeps (a command whose stop signals keep their default
    /// action, which ends the process at once).
    static func sleeping(limit: Duration, location: String, logger: Logger) -> DatabaseWait {
        DatabaseWait(limit: limit, location: location, logger: logger) { pause in
            Thread.sleep(forTimeInterval: Double(pause.nanoseconds) / 1e9)
            return nil
        }
    }

    /// `attempt`'s value, once the database could be reached.
    func run<T>(_ attempt: () throws -> T) throws -> T {
        let clock = ContinuousClock()
        let start = clock.now
        var pause: Duration = .milliseconds(250)
        var attempts = 0
        while true {
            attempts += 1
            do {
                return try attempt()
            } catch let error as StoreUnavailable {
                let left = limit - (clock.now - start)
                guard left > .zero else {
                    let tries = attempts == 1 ? "1 attempt" : "\(attempts) attempts in \(Self.seconds(clock.now - start)) s"
                    throw StoreUnavailable(error.reason, detail: "\(location) (\(tries)): \(error.detail)", retryAfterSeconds: error.retryAfterSeconds)
                }
                let next = min(pause, left)
                logger.warning(
                    "database unreachable at start-up: trying again",
                    metadata: [
                        "database": "\(location)", "attempt": "\(attempts)", "retryIn": "\(Self.seconds(next)) s",
                        "waitLimit": "\(Self.seconds(limit)) s", "error": "\(error.detail)",
                    ])
                if let signal = self.pause(next) { throw StoppedWhileWaiting(signal: signal, location: location) }
                pause = min(pause * 2, Self.longestPause)
            }
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.2f", Double(duration.nanoseconds) / 1e9)
    }
}

/// A stop signal came while `serve` waited for its database: it stops, having served nothing.
struct StoppedWhileWaiting: Error, CustomStringConvertible {
    let signal: Int32
    let location: String

    var description: String {
        "stopped by \(signal == SIGINT ? "SIGINT" : "SIGTERM") while waiting for the database \(location)"
    }
}
