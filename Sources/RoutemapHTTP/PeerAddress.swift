import CMicroHTTPD

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A peer's IP address as libmicrohttpd reports it: kept as bytes for every request and
/// written out as text only when asked for (`Request.remoteAddress`), which few handlers do.
struct PeerAddress: Sendable {
    /// 4 for IPv4 (an IPv4-mapped IPv6 address included), 6 for IPv6.
    let version: Int32
    /// The address's 16 bytes in network order (IPv4 uses the first 4).
    let bytes: (UInt64, UInt64)

    /// The peer of `connection`, or `nil` when libmicrohttpd doesn't know it.
    init?(of connection: OpaquePointer) {
        guard let address = CMHD_client_address(connection) else { return nil }
        self.init(address)
    }

    /// The address of an `AF_INET` or `AF_INET6` socket address; `nil` for other families.
    /// An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, how a dual-stack socket sees an IPv4
    /// peer) counts as the IPv4 address it maps.
    init?(_ address: UnsafePointer<sockaddr>) {
        var bytes: (UInt64, UInt64) = (0, 0)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let ipv4 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self).sin_addr
            withUnsafeBytes(of: ipv4) { ipv4 in withUnsafeMutableBytes(of: &bytes) { $0.copyMemory(from: ipv4) } }
            version = 4
        case AF_INET6:
            let ipv6 = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self).sin6_addr
            version = withUnsafeBytes(of: ipv6) { ipv6 in
                withUnsafeMutableBytes(of: &bytes) { bytes in
                    if ipv6.prefix(10).allSatisfy({ $0 == 0 }), ipv6[10] == 0xFF, ipv6[11] == 0xFF {
                        bytes.copyMemory(from: UnsafeRawBufferPointer(rebasing: ipv6[12..<16]))
                        return 4
                    }
                    bytes.copyMemory(from: ipv6)
                    return 6
                }
            }
        default:
            return nil
        }
        self.bytes = bytes
    }

    /// The numeric text: dotted IPv4, or IPv6 as `inet_ntop` writes it.
    var text: String? {
        var bytes = self.bytes
        let family = version == 4 ? AF_INET : AF_INET6
        return withUnsafeBytes(of: &bytes) { raw in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
                guard let base = buffer.baseAddress, inet_ntop(family, raw.baseAddress, base, socklen_t(buffer.count)) != nil
                else { return nil }
                return String(cString: base)
            }
        }
    }
}
