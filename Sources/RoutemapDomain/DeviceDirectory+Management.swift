import Foundation

extension DeviceDirectory {
    /// Every device ever enrolled, revoked ones included, oldest first.
    public func all() throws -> [Device] {
        try store.devices()
    }

    /// Revokes device `id`: its token stops opening anything (the API's token cache is told
    /// by the caller). Revoking a revoked device changes nothing and returns it as it is, so a
    /// retry gets the same answer. Throws `DeviceError.deviceNotFound`.
    public func revoke(id: String) async throws -> Device {
        let date = now().roundedToMilliseconds
        return try await store.write(durability: .full) { transaction in
            guard let device = try transaction.device(id: id) else { throw DeviceError.deviceNotFound(id) }
            if device.revokedAt != nil { return device }
            try transaction.revokeDevice(id: id, at: date)
            return device.revoked(at: date)
        }
    }

    /// Gives device `id` a new token, which replaces the old one at once (only its digest is
    /// stored). Throws `DeviceError.deviceNotFound` or `deviceRevoked`.
    public func rotateToken(id: String) async throws -> (device: Device, token: DeviceToken) {
        let token = DeviceToken.generate()
        let digest = token.digest
        let device = try await store.write(durability: .full) { transaction in
            guard let device = try transaction.device(id: id) else { throw DeviceError.deviceNotFound(id) }
            guard device.revokedAt == nil else { throw DeviceError.deviceRevoked(id) }
            try transaction.replaceToken(deviceId: id, tokenDigest: digest)
            return device
        }
        return (device, token)
    }
}
