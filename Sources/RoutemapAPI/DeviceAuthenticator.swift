import RoutemapDomain
import RoutemapHTTP
import Synchronization

/// Finds the device behind a request's bearer token, for routes with `.device` or `.manager`
/// access (which routes those are is declared where each is registered).
///
/// Known tokens are cached in memory, so the hot path is one dictionary lookup, with no
/// SHA-256 per request; unknown tokens always go to the store, so a client sending garbage
/// cannot grow the cache. Where the store's reads are round trips (PostgreSQL), those lookups
/// are handed back to wait for (`Authentication.later`) instead of holding the server's thread.
/// A token stops working:
/// - at once when this process revokes it, or when its rotated successor is first used
///   (`forget(deviceId:)`, called after the change committed; a lookup that started before is
///   not cached, by the generation check);
/// - within `revalidateAfter` when another process does (`routemap devices revoke` on the same
///   database file): at most that often, one request reads the store's device revision, and
///   when it moved every cached token is forgotten (one query a second for all tokens, not one
///   lookup per cached token).
final class DeviceAuthenticator: Sendable {
    private struct Cache {
        var tokens: [String: AuthenticatedDevice] = [:]
        /// Bumped by every `forget`: a lookup that read the store before it is not cached.
        var generation = 0
        /// The store's device revision the cached tokens were confirmed under.
        var revision: Int?
        /// Monotonic nanoseconds of the last revision check.
        var checkedAt: Int64 = 0
    }

    private let directory: DeviceDirectory
    private let cache = Mutex(Cache())
    private let revalidateAfter: Int64
    private static let cacheLimit = 100_000

    /// - Parameter revalidateAfter: how long a cached token is trusted before the store is
    ///   asked again (how soon another process's revocation takes effect).
    init(directory: DeviceDirectory, revalidateAfter: Duration = .seconds(1)) {
        self.directory = directory
        self.revalidateAfter = revalidateAfter.nanoseconds
    }

    /// What authentication found at once.
    enum Authentication: Sendable {
        /// The device, known now.
        case now(AuthenticatedDevice)
        /// The store must be read first, and its reads are round trips: wait for this.
        case later(@Sendable () async throws -> AuthenticatedDevice)
    }

    /// The device whose token `request` carries, or 401 `unauthorized` (no token, an unknown
    /// one, or a revoked device's): at once when the token is cached or the store's reads are
    /// immediate, else as the lookup to wait for.
    func authenticate(_ request: Request) throws -> Authentication {
        guard let header = request.headers["Authorization"] else {
            throw Problem.unauthorized("This endpoint needs `Authorization: Bearer <token>`; enroll with POST /v1/devices.")
        }
        guard let value = Self.bearerToken(in: header), value.utf8.count <= 256 else {
            throw Problem.unauthorized("The Authorization header must be `Bearer <token>`.", invalidToken: true)
        }
        // The common path: one lock. Once per `revalidateAfter`, one request checks the
        // store's device revision first; the others go on with the cache meanwhile.
        let now = CoarseClock.nanoseconds()
        let cached = cache.withLock { cache -> (device: AuthenticatedDevice?, generation: Int)? in
            guard now - cache.checkedAt >= revalidateAfter else { return (cache.tokens[value], cache.generation) }
            cache.checkedAt = now
            return nil
        }
        if let known = cached?.device { return .now(known) }
        let generation = cached?.generation
        guard !directory.readsAreImmediate else { return .now(try lookUp(value, generation: generation)) }
        let directory = self.directory
        return .later { [self] in try await directory.reading { try self.lookUp(value, generation: generation) } }
    }

    /// The device of token `value` from the store, cached unless a revocation committed since
    /// the cache was at `generation`. With no generation (the revision check is due), first
    /// checks the store's device revision and, when another process changed a device since the
    /// cache was filled, forgets every cached token.
    private func lookUp(_ value: String, generation known: Int?) throws -> AuthenticatedDevice {
        let generation: Int
        if let known {
            generation = known
        } else {
            let revision = try directory.revision()
            let (cachedDevice, current) = cache.withLock { cache in
                if cache.revision != revision {
                    cache.revision = revision
                    cache.generation &+= 1
                    cache.tokens.removeAll(keepingCapacity: true)
                }
                return (cache.tokens[value], cache.generation)
            }
            if let cachedDevice { return cachedDevice }
            generation = current
        }
        let token = DeviceToken(value: value)
        guard let device = try directory.device(token: token) ?? newToken(token) else {
            throw Problem.unauthorized("The token is not valid.", invalidToken: true)
        }
        let authenticated = AuthenticatedDevice(id: device.id, role: device.role)
        cache.withLock { cache in
            // A revocation that committed while the store was read must not be undone here.
            guard cache.generation == generation else { return }
            if cache.tokens.count >= Self.cacheLimit { cache.tokens.removeAll(keepingCapacity: true) }
            cache.tokens[value] = authenticated
        }
        return authenticated
    }

    /// The device of a rotated token used for the first time: the token becomes the device's
    /// only one (the old one is refused once that commits), in the background, so this request
    /// does not wait for a write. Should that write fail, the token's next use tries again.
    private func newToken(_ token: DeviceToken) throws -> Device? {
        guard let device = try directory.device(newToken: token) else { return nil }
        let directory = self.directory
        Task { [self] in
            guard (try? await directory.promote(token, deviceId: device.id)) != nil else { return }
            forget(deviceId: device.id)
        }
        return device
    }

    /// Drops every cached token of `deviceId`: call it once its revocation or new token has
    /// committed, so its old token is refused from the next request on.
    func forget(deviceId: String) {
        cache.withLock { cache in
            cache.generation &+= 1
            cache.tokens = cache.tokens.filter { $0.value.id != deviceId }
        }
    }
}

extension DeviceAuthenticator {
    /// The credentials of `Bearer <token>` (scheme case-insensitive, RFC 6750), or `nil`.
    /// Spaces may follow the scheme's one; the token itself has none.
    ///
    /// Reads the header's bytes in place: this runs on every authenticated request.
    static func bearerToken(in header: String) -> String? {
        var header = header
        return header.withUTF8 { bytes -> String? in
            let space = UInt8(ascii: " ")
            guard bytes.count > 7, bytes[6] == space else { return nil }
            for (index, letter) in bearerScheme.enumerated() where bytes[index] | 0x20 != letter { return nil }
            var start = 7
            while start < bytes.count, bytes[start] == space { start += 1 }
            let token = UnsafeBufferPointer(rebasing: bytes[start...])
            guard !token.isEmpty, !token.contains(space) else { return nil }
            return String(decoding: token, as: UTF8.self)
        }
    }

    /// `bearer` in lowercase ASCII.
    private static let bearerScheme: [UInt8] = Array("bearer".utf8)
}
