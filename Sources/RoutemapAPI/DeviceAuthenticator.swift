import RoutemapDomain
import RoutemapHTTP
import Synchronization

/// Finds the device behind a request's bearer token, for routes with `.device` access (which
/// routes those are is declared where each is registered).
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

    /// The device whose token `request` carries, or 401 `unauthorized`.
    func authenticate(_ request: Request) throws -> AuthenticatedDevice {
        guard let header = request.headers["Authorization"] else {
            throw Problem.unauthorized("This endpoint needs `Authorization: Bearer <token>`; enroll with POST /v1/devices.")
        }
        guard let value = Self.bearerToken(in: header), value.utf8.count <= 256 else {
            throw Problem.unauthorized("The Authorization header must be `Bearer <token>`.", invalidToken: true)
        }
        if let device = cache.withLock({ $0[value] }) { return AuthenticatedDevice(id: device) }
        let token = DeviceToken(value: value)
        guard let device = try directory.device(token: token) else {
            throw Problem.unauthorized("The token is not valid.", invalidToken: true)
        }
        cache.withLock { cache in
            if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[value] = device.id
        }
        return AuthenticatedDevice(id: device.id)
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
