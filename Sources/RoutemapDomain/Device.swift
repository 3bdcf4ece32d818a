import Foundation

/// A till (phone, tablet) enrolled to use the API. It owns the bills it opens.
public struct Device: Sendable, Hashable, Identifiable {
    /// `dev_` followed by 22 random base62 characters.
    public let id: String
    /// What the operator called it when enrolling ("Front counter").
    public let name: String
    public let createdAt: Date

    public init(id: String, name: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }
}
