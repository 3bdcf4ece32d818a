import Foundation

extension DeviceDirectory {
    /// Every device ever enrolled, revoked ones included, oldest first: read where the store's
    /// reads may wait (``DataReads/reading(_:)``), never holding the caller's thread.
    public func all() async throws -> [Device] {
        let store = self.store
        return try await reading { try store.devices() }
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

    /// Gives device `id` a new token (only its digest is stored). Both work until the new one
    /// is first used (``promote(_:deviceId:)``); from then on only the new one does. So a device
    /// that lost the answer keeps its old token and can rotate again; a second rotation
    /// replaces a new token not used yet. Throws `DeviceError.deviceNotFound` or `deviceRevoked`.
    public func rotateToken(id: String) async throws -> (device: Device, token: DeviceToken) {
        let token = DeviceToken.generate()
        let digest = token.digest
        let device = try await store.write(durability: .full) { transaction in
            guard let device = try transaction.device(id: id) else { throw DeviceError.deviceNotFound(id) }
            guard device.revokedAt == nil else { throw DeviceError.deviceRevoked(id) }
            try transaction.setNextToken(deviceId: id, tokenDigest: digest)
            return device
        }
        return (device, token)
    }

    /// The device whose rotated token not used yet is `token`, or `nil` (also when revoked).
    public func device(newToken token: DeviceToken) throws -> Device? {
        guard let device = try store.device(nextTokenDigest: token.digest), device.revokedAt == nil else { return nil }
        return device
    }

    /// `token`, a rotated token, was used: it becomes device `deviceId`'s only token.
    public func promote(_ token: DeviceToken, deviceId: String) async throws {
        let digest = token.digest
        try await store.write(durability: .full) { transaction in
            try transaction.promoteNextToken(deviceId: deviceId, tokenDigest: digest)
        }
    }
}
