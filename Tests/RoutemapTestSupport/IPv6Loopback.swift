import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whether this machine can bind the IPv6 loopback address (containers may have IPv6 off): for
/// tests of IPv6 hosts to run where they can.
public func ipv6LoopbackWorks() -> Bool {
    let descriptor = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_addr = in6addr_loopback
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0 }
    }
}
