/// A section of the menu ("Coffee"): items name theirs by `id`.
public struct MenuCategory: Sendable, Hashable, Identifiable {
    /// A slug such as `coffee`.
    public let id: String
    /// What the menu shows as the section's title.
    public let name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
