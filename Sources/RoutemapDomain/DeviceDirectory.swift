import Foundation

/// Enrolls devices and finds them by token.
public struct DeviceDirectory: Sendable {
    let store: any POSStore
    let now: @Sendable () -> Date

    public init(store: any POSStore, now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.now = now
    }

    /// Enrolls a device called `name` with `role`: returns it with its token, which exists
    /// nowhere else afterwards (only its digest is stored). Committed with `full` durability: a
    /// token a device received must keep working after a power loss. Throws ``InvalidInput`` for
    /// a name that breaks ``DisplayName``'s rule.
    public func enroll(name: String, role: DeviceRole = .till) async throws -> (device: Device, token: DeviceToken) {
        try DisplayName.checked(name)
        let device = Device(id: Identifier.make(prefix: "dev_"), name: name, createdAt: now().roundedToMilliseconds, role: role)
        let token = DeviceToken.generate()
        let digest = token.digest
        try await store.write(durability: .full) { transaction in try transaction.insert(device, tokenDigest: digest) }
        return (device, token)
    }

    /// Whether the store answers reads in this process (see ``DataReads/readsAreImmediate``):
    /// then a request's thread may look a token up; else it does so inside ``reading(_:)``.
    public var readsAreImmediate: Bool { store.readsAreImmediate }

    /// Runs `body`, which reads through this directory (a token's device, the revision), where
    /// its reads may wait on the database without holding the caller's thread.
    public func reading<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await store.reading(body)
    }

    /// Changes whenever any device changes, here or in another process (see `POSStore.deviceRevision`).
    public func revision() throws -> Int {
        try store.deviceRevision()
    }

    /// The device holding `token`, or `nil` (also when it was revoked).
    public func device(token: DeviceToken) throws -> Device? {
        guard let device = try store.device(tokenDigest: token.digest), device.revokedAt == nil else { return nil }
        return device
    }
}
