import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A TCP forwarder on a loopback port to another address (the test PostgreSQL server), which
/// can be frozen: from then on nothing more is passed either way and new connections are
/// accepted but never connected onwards, as a database server that hangs (or a network that
/// drops everything) looks to its clients, while the server itself, and every other test's
/// connections to it, go on, until ``thaw()``. ``close()`` ends every connection.
public final class FreezableProxy: Sendable {
    public let port: Int
    private let listener: Int32
    private let upstream: (host: String, port: Int)
    private let state = Mutex<(frozen: Bool, closed: Bool, descriptors: [Int32])>((false, false, []))

    public init(to host: String, port upstreamPort: Int) throws {
        upstream = (host, upstreamPort)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = Self.address("127.0.0.1", 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound, listen(listener, 64) == 0 else {
            Glibc.close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// A new database on the test PostgreSQL server (``TestPostgres/newDatabase()``) and a proxy
    /// in front of it: `proxiedURL` reaches the database through the proxy, for the node under
    /// test. Close the proxy, then drop `databaseURL`, when done.
    public static func inFrontOfNewTestDatabase() throws -> (proxy: FreezableProxy, databaseURL: String, proxiedURL: String) {
        let url = try TestPostgres.newDatabase()
        do {
            guard var components = URLComponents(string: url), let host = components.host else { throw POSIXError(.EINVAL) }
            let proxy = try FreezableProxy(to: host, port: components.port ?? 5432)
            components.port = proxy.port
            return (proxy, url, components.string ?? url)
        } catch {
            TestPostgres.dropDatabase(url)
            throw error
        }
    }

    /// Stops passing anything, from now on.
    public func freeze() {
        state.withLock { $0.frozen = true }
    }

    /// Passes everything again: what was held goes on, and connections accepted meanwhile are
    /// connected onwards (late, as after a network partition heals).
    public func thaw() {
        state.withLock { $0.frozen = false }
    }

    /// Closes the listener and every connection, once (a descriptor closed twice could be
    /// another test's by then).
    public func close() {
        let descriptors = state.withLock { state -> [Int32]? in
            guard !state.closed else { return nil }
            state.closed = true
            defer { state.descriptors.removeAll() }
            return state.descriptors
        }
        guard let descriptors else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        // Shut down, not closed: their pumps may still be reading them (the test process ends soon).
        for descriptor in descriptors { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    deinit { close() }

    private var isClosed: Bool { state.withLock { $0.closed } }

    /// Waits while frozen; false once closed.
    private func waitWhileFrozen() -> Bool {
        while true {
            let (frozen, closed) = state.withLock { ($0.frozen, $0.closed) }
            if closed { return false }
            if !frozen { return true }
            usleep(20_000)
        }
    }

    private func keep(_ descriptor: Int32) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.descriptors.append(descriptor)
            return true
        }
    }

    private func acceptLoop() {
        while !isClosed {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            guard keep(client) else {
                Glibc.close(client)
                return
            }
            Thread.detachNewThread { [self] in
                guard waitWhileFrozen() else { return }
                let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var address = Self.address(upstream.host, upstream.port)
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
                }
                guard connected, keep(server) else {
                    Glibc.close(server)
                    shutdown(client, Int32(SHUT_RDWR))
                    return
                }
                Thread.detachNewThread { [self] in pump(from: server, to: client) }
                pump(from: client, to: server)
            }
        }
    }

    /// Passes bytes from `source` to `destination` until either closes, holding them while frozen.
    private func pump(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        defer {
            shutdown(source, Int32(SHUT_RDWR))
            shutdown(destination, Int32(SHUT_RDWR))
        }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            guard count > 0, waitWhileFrozen() else { return }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes { send(destination, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL)) }
                guard written > 0 else { return }
                sent += written
            }
        }
    }

    private static func address(_ host: String, _ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host == "localhost" ? "127.0.0.1" : host)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return address
    }
}
