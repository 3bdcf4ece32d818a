import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The per-address connection limit when some peers are trusted proxies (libmicrohttpd's own
/// limit cannot exempt an address): connections are counted per peer address as they open, a
/// trusted proxy's are not counted, and one over the limit is shut down at once (libmicrohttpd
/// then reads end of file and closes it, as when a client leaves).
final class AddressConnections: Sendable {
    let limit: Int
    let trusted: TrustedProxies
    private struct State {
        var counts: [IPAddress: Int] = [:]
        var addresses: [ObjectIdentifier: IPAddress] = [:]
    }
    private let state = Mutex(State())

    init(limit: Int, trusted: TrustedProxies) {
        self.limit = limit
        self.trusted = trusted
    }

    /// Counts `connection` from `peer`; shuts its socket down when that address is over the limit.
    func opened(_ connection: OpenConnections.Connection, peer: String?) {
        guard limit > 0, let peer, let address = IPAddress(peer), !trusted.trusts(address) else { return }
        let over = state.withLock { state in
            state.addresses[ObjectIdentifier(connection)] = address
            state.counts[address, default: 0] += 1
            return state.counts[address]! > limit
        }
        if over { _ = shutdown(connection.descriptor, Int32(SHUT_RDWR)) }
    }

    /// `connection` closed: it no longer counts.
    func closed(_ connection: OpenConnections.Connection) {
        state.withLock { state in
            guard let address = state.addresses.removeValue(forKey: ObjectIdentifier(connection)) else { return }
            let left = state.counts[address, default: 1] - 1
            state.counts[address] = left > 0 ? left : nil
        }
    }
}
