import CMicroHTTPD

/// A peer's IP address as libmicrohttpd reports it: kept as bytes for every request and
/// written out as text only when asked for (`Request.remoteAddress`), which few handlers do.
struct PeerAddress: Sendable {
    /// 4 for IPv4 (an IPv4-mapped IPv6 address included), 6 for IPv6.
    let version: Int32
    /// The address's 16 bytes in network order (IPv4 uses the first 4).
    let bytes: (UInt64, UInt64)

    /// The peer of `connection`, or `nil` when libmicrohttpd doesn't know it.
    init?(of connection: OpaquePointer) {
        var bytes: (UInt64, UInt64) = (0, 0)
        let version = withUnsafeMutableBytes(of: &bytes) { raw in
            CMHD_client_address_bytes(connection, raw.baseAddress?.assumingMemoryBound(to: UInt8.self))
        }
        guard version == 4 || version == 6 else { return nil }
        self.version = version
        self.bytes = bytes
    }

    /// The numeric text: dotted IPv4, or IPv6 as `inet_ntop` writes it.
    var text: String? {
        var bytes = self.bytes
        return withUnsafeBytes(of: &bytes) { raw in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
                guard let base = buffer.baseAddress,
                    CMHD_format_address(version, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), base, buffer.count) == 0
                else { return nil }
                return String(cString: base)
            }
        }
    }
}
