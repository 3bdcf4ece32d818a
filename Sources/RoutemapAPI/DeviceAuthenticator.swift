import RoutemapDomain
import RoutemapHTTP
import Synchronization

/// The gate that admits requests carrying a device's bearer token and names the device in
/// `Request.identity`. Only `/healthz` and enrollment (`/v1/devices`) are open.
///
/// Known tokens are cached by digest (devices are never removed while the server runs), so
/// the hot path is a hash and a dictionary lookup; unknown tokens always go to the store, so
/// a client sending garbage cannot grow the cache.
final class DeviceAuthenticator: Sendable {
    private let directory: DeviceDirectory
    private let cache = Mutex<[[UInt8]: String]>([:])
    private static let openPaths: Set<String> = ["/healthz", "/v1/devices"]
    private static let cacheLimit = 100_000

    init(directory: DeviceDirectory) {
        self.directory = directory
    }

    /// Sets `request.identity` to the device id, or throws 401 `unauthorized`.
    @Sendable func authenticate(_ request: inout Request) throws {
        if Self.openPaths.contains(request.path) { return }
        guard let header = request.headers["Authorization"] else {
            throw Problem.unauthorized("This endpoint needs `Authorization: Bearer <token>`; enroll with POST /v1/devices.")
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", parts[1].utf8.count <= 256 else {
            throw Problem.unauthorized("The Authorization header must be `Bearer <token>`.", invalidToken: true)
        }
        let token = DeviceToken(value: String(parts[1]))
        let digest = token.digest
        if let device = cache.withLock({ $0[digest] }) {
            request.identity = device
            return
        }
        guard let device = try directory.device(token: token) else {
            throw Problem.unauthorized("The token is not valid.", invalidToken: true)
        }
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[digest] = device.id
        }
        request.identity = device.id
    }
}

extension Request {
    /// The device the authenticator admitted; a route behind it always has one.
    func device() throws -> String {
        guard let identity else { throw Problem.unauthorized("This endpoint needs a device token.") }
        return identity
    }
}
