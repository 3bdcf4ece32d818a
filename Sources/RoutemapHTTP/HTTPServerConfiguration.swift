#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How the server listens and what it accepts. Defaults suit one small host serving a shop's
/// tills; the limits bound what hostile or broken clients can hold (see each).
public struct HTTPServerConfiguration: Sendable {
    /// Numeric address to bind: `127.0.0.1`, `0.0.0.0` (all IPv4), `::` (all IPv6 and IPv4) or
    /// any IPv4/IPv6 literal. Host names are refused, so the bind address is never ambiguous.
    public var host: String
    /// TCP port; 0 picks a free one (read it back from `HTTPServer.port`).
    public var port: UInt16
    /// Worker threads; immediate handlers run on them (suspending ones hold none while they
    /// wait). Default: `defaultThreads`, twice the cores.
    public var threads: Int
    /// Seconds a connection may stay silent (libmicrohttpd's idle timeout, reset by every byte
    /// received or sent); 0 means never. Bounds idle keep-alive connections.
    public var connectionTimeout: Int
    /// Seconds a client has to send a whole request, head and body, counted from the moment
    /// the connection opens, or on a kept-alive connection from the end of the previous answer
    /// plus `connectionTimeout` (so waiting idle between requests is not counted against it).
    /// A connection still short of a complete request then is closed, however steadily it
    /// dribbles bytes (slowloris, slow POST): libmicrohttpd's own timeout is an idle timeout
    /// that each byte resets. It also bounds how long a suspended handler may take to answer
    /// (then 503 `timed_out`). 0 turns both off.
    public var requestTimeout: Int
    /// Largest request body accepted (at least 1 byte); larger ones answer 413.
    public var maxBodyBytes: Int
    /// Most connections open at once. Further ones wait in the kernel's accept queue (or are
    /// closed at once) until one ends. Lowered at start if the open-file limit can't be raised
    /// far enough (`HTTPServer.connectionLimit` tells what was applied).
    public var connectionLimit: Int
    /// Most connections open at once from one IP address (further ones are closed at once);
    /// 0 means no limit. Every till of a shop behind one NAT shares an address, so this must
    /// stay far above what one shop opens; behind a reverse proxy every client has the proxy's.
    public var perAddressConnectionLimit: Int
    /// Memory per connection for the request line, headers and buffers; a request head beyond
    /// it is answered 431 (414 for a request line alone) by libmicrohttpd, connection closed.
    public var connectionMemoryLimit: Int
    /// Most requests whose handlers may be running at once with their connection suspended
    /// (waiting for a commit, say); further ones are answered 503 `overloaded` with
    /// `Retry-After` at once, so nothing queues without bound. A handler running longer than
    /// `requestTimeout` is answered 503 `timed_out` (it still completes; its answer is dropped).
    public var requestsInFlightLimit: Int
    /// Whether `start` may raise the process's soft open-file limit to fit `connectionLimit`
    /// (a process-wide change, so off unless the program asks). Without it, the connection
    /// limit is lowered to what fits.
    public var raisesOpenFileLimit: Bool
    /// Serve HTTPS with this certificate and key (libmicrohttpd's own TLS); `nil`: plain HTTP.
    public var tls: TLSCredentials? = nil
    /// Peers exempt from `perAddressConnectionLimit`: reverse proxies, whose every client has
    /// the proxy's address (they limit their clients' connections themselves).
    public var trustedProxies = TrustedProxies()

    /// - Parameters:
    ///   - connectionLimit: 4096: thousands of tills with a keep-alive connection or two each,
    ///     in about 4,100 file descriptors and at most 128 MiB of connection memory.
    ///   - perAddressConnectionLimit: 1024: a shop of 100 tills behind one NAT, two connections
    ///     each, uses a fifth of it; one address alone can hold at most a quarter of
    ///     `connectionLimit`, so starving everyone takes several addresses.
    ///   - requestTimeout: 20 s, the window Apache's mod_reqtimeout gives a request head: far
    ///     above what a till on poor Wi-Fi needs for a 64 KiB request, short enough that a
    ///     connection held by dribbling is soon freed.
    public init(
        host: String = "127.0.0.1",
        port: UInt16 = 8080,
        threads: Int = HTTPServerConfiguration.defaultThreads,
        connectionTimeout: Int = 30,
        requestTimeout: Int = 20,
        maxBodyBytes: Int = 65_536,
        connectionLimit: Int = 4096,
        perAddressConnectionLimit: Int = 1024,
        connectionMemoryLimit: Int = 32 * 1024,
        requestsInFlightLimit: Int = 1024,
        raisesOpenFileLimit: Bool = false
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.connectionTimeout = connectionTimeout
        self.requestTimeout = requestTimeout
        self.maxBodyBytes = maxBodyBytes
        self.connectionLimit = connectionLimit
        self.perAddressConnectionLimit = perAddressConnectionLimit
        self.connectionMemoryLimit = connectionMemoryLimit
        self.requestsInFlightLimit = requestsInFlightLimit
        self.raisesOpenFileLimit = raisesOpenFileLimit
    }
}
