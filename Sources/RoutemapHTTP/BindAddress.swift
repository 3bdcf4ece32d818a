#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A numeric host and port as a `sockaddr` for `bind`, parsed with `getaddrinfo`
/// (`AI_NUMERICHOST`, so no name lookups; IPv6 scope ids like `fe80::1%eth0` work).
struct BindAddress {
    private(set) var storage = sockaddr_storage()
    let isIPv6: Bool

    init(host: String, port: UInt16) throws(HTTPServerError) {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_PASSIVE
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard status == 0, let info = list?.pointee, let address = info.ai_addr,
            Int(info.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size
        else {
            throw HTTPServerError("'\(host)' is not a numeric IPv4 or IPv6 address to listen on.")
        }
        isIPv6 = info.ai_family == AF_INET6
        withUnsafeMutableBytes(of: &storage) { destination in
            destination.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen)))
        }
    }

    /// Calls `body` with the address as a `sockaddr` pointer.
    mutating func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>) throws -> T) rethrows -> T {
        try withUnsafePointer(to: &storage) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0) }
        }
    }
}
