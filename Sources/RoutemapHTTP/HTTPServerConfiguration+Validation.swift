#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension HTTPServerConfiguration {
    /// The values each setting accepts: `validate()` refuses others, and a program that reads
    /// these settings from its user (routemap's `serve`) checks against these ranges rather
    /// than writing its own.
    public enum Allowed {
        public static let threads = 1...1024
        /// 0: idle connections are never closed.
        public static let connectionTimeout = 0...86_400
        /// 0: no time limit on receiving a request or on a handler.
        public static let requestTimeout = 0...86_400
        /// At least one byte: a limit of 0 would refuse every body.
        public static let maxBodyBytes = 1...(1 << 30)
        public static let connectionLimit = 1...1_000_000
        /// 0: no limit per address.
        public static let perAddressConnectionLimit = 0...1_000_000
        public static let connectionMemoryLimit = 4096...(64 << 20)
        public static let requestsInFlightLimit = 1...1_000_000
    }

    /// Whether `host` is an address the server can bind (a numeric IPv4 or IPv6 address).
    public static func isBindable(host: String) -> Bool {
        (try? BindAddress(host: host, port: 0)) != nil
    }

    /// Throws `HTTPServerError` naming the first setting outside its `Allowed` range, or a
    /// host that is not a numeric address. `HTTPServer.start()` calls it.
    public func validate() throws(HTTPServerError) {
        func check(_ value: Int, _ name: String, _ range: ClosedRange<Int>) throws(HTTPServerError) {
            guard range.contains(value) else {
                throw HTTPServerError("\(name) must be \(range.lowerBound) to \(range.upperBound), not \(value).")
            }
        }
        try check(threads, "threads", Allowed.threads)
        try check(connectionTimeout, "connection timeout", Allowed.connectionTimeout)
        try check(requestTimeout, "request timeout", Allowed.requestTimeout)
        try check(maxBodyBytes, "max body bytes", Allowed.maxBodyBytes)
        try check(connectionLimit, "connection limit", Allowed.connectionLimit)
        try check(perAddressConnectionLimit, "per-address connection limit", Allowed.perAddressConnectionLimit)
        try check(connectionMemoryLimit, "connection memory limit", Allowed.connectionMemoryLimit)
        try check(requestsInFlightLimit, "requests in flight limit", Allowed.requestsInFlightLimit)
        _ = try BindAddress(host: host, port: port)
    }

    /// Twice the number of cores (at most `Allowed.threads`' upper bound): the default of
    /// `threads`, and what every recorded benchmark ran with (BENCHMARKS.md).
    public static var defaultThreads: Int {
        min(Allowed.threads.upperBound, 2 * ProcessInfo.processInfo.activeProcessorCount)
    }
}
