import RoutemapDomain
import RoutemapHTTP
import Synchronization

/// The gate that admits requests carrying a device's bearer token and names the device in
/// `Request.identity`. Only `/healthz`, enrollment (`/v1/devices`) and the web client's files are open.
///
/// Known tokens are cached in memory (devices are never removed while the server runs), so
/// the hot path is one dictionary lookup, with no SHA-256 per request; unknown tokens always
/// go to the store, so a client sending garbage cannot grow the cache.
final class DeviceAuthenticator: Sendable {
    private let directory: DeviceDirectory
    private let cache = Mutex<[String: String]>([:])
    private static let cacheLimit = 100_000

    init(directory: DeviceDirectory) {
        self.directory = directory
    }

    /// Sets `request.identity` to the device id, or throws 401 `unauthorized`.
    @Sendable func authenticate(_ request: inout Request) throws {
        if Self.isOpen(request.path) { return }
        guard let header = request.headers["Authorization"] else {
            throw Problem.unauthorized("This endpoint needs `Authorization: Bearer <token>`; enroll with POST /v1/devices.")
        }
        guard let value = Self.bearerToken(in: header), value.utf8.count <= 256 else {
            throw Problem.unauthorized("The Authorization header must be `Bearer <token>`.", invalidToken: true)
        }
        if let device = cache.withLock({ $0[value] }) {
            request.identity = device
            return
        }
        let token = DeviceToken(value: value)
        guard let device = try directory.device(token: token) else {
            throw Problem.unauthorized("The token is not valid.", invalidToken: true)
        }
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[value] = device.id
        }
        request.identity = device.id
    }
}

extension DeviceAuthenticator {
    /// Whether `path` is open to anyone: `/healthz`, enrollment and the web client's files.
    static func isOpen(_ path: String) -> Bool {
        path == "/healthz" || path == "/v1/devices" || StaticFiles.paths.contains(path)
    }

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

extension Request {
    /// The device the authenticator admitted; a route behind it always has one.
    func device() throws -> String {
        guard let identity else { throw Problem.unauthorized("This endpoint needs a device token.") }
        return identity
    }
}
