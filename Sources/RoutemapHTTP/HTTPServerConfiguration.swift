#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How the server listens and what it accepts. Defaults suit one small host.
public struct HTTPServerConfiguration: Sendable {
    /// Numeric address to bind: `127.0.0.1`, `0.0.0.0` (all IPv4), `::` (all IPv6 and IPv4) or
    /// any IPv4/IPv6 literal. Host names are refused, so the bind address is never ambiguous.
    public var host: String
    /// TCP port; 0 picks a free one (read it back from `HTTPServer.port`).
    public var port: UInt16
    /// Worker threads; handlers run on them, so a blocking handler holds one.
    public var threads: Int
    /// Seconds an idle connection is kept open.
    public var connectionTimeout: Int
    /// Largest request body accepted; larger ones answer 413.
    public var maxBodyBytes: Int
    /// Most connections open at once.
    public var connectionLimit: Int
    /// Most connections from one IP address; 0 means no limit.
    public var perAddressConnectionLimit: Int
    /// Memory per connection for request headers and buffers; headers beyond it answer 431.
    public var connectionMemoryLimit: Int

    public init(
        host: String = "127.0.0.1",
        port: UInt16 = 8080,
        threads: Int = ProcessInfo.processInfo.activeProcessorCount,
        connectionTimeout: Int = 30,
        maxBodyBytes: Int = 65_536,
        connectionLimit: Int = 4096,
        perAddressConnectionLimit: Int = 0,
        connectionMemoryLimit: Int = 32 * 1024
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.connectionTimeout = connectionTimeout
        self.maxBodyBytes = maxBodyBytes
        self.connectionLimit = connectionLimit
        self.perAddressConnectionLimit = perAddressConnectionLimit
        self.connectionMemoryLimit = connectionMemoryLimit
    }
}
