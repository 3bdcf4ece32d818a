import Foundation

/// A till (phone, tablet) or a manager's device enrolled to use the API. It owns the bills it opens
/// (and those a manager transfers to it).
public struct Device: Sendable, Hashable, Identifiable {
    /// `dev_` followed by 22 random base62 characters.
    public let id: String
    /// What the operator called it when enrolling ("Front counter").
    public let name: String
    public let createdAt: Date
    /// What it may do.
    public let role: DeviceRole
    /// When its token was revoked; a revoked device's token opens nothing. Its bills stay.
    public let revokedAt: Date?

    public init(id: String, name: String, createdAt: Date, role: DeviceRole = .till, revokedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.role = role
        self.revokedAt = revokedAt
    }

    /// The same device, revoked at `date`.
    public func revoked(at date: Date) -> Device {
        Device(id: id, name: name, createdAt: createdAt, role: role, revokedAt: date)
    }
}
