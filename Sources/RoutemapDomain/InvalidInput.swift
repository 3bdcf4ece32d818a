/// A value a caller gave that breaks its rule: a name that does not follow ``DisplayName``'s, a
/// void reason that does not follow ``BillVoiding``'s, a menu id that is no ``MenuSlug``, a price
/// outside ``MenuItem/priceRange``, a refund of less than 1. The use cases refuse it before they
/// read or write anything, whoever calls them.
public struct InvalidInput: Error, Sendable, Equatable {
    /// What the caller gave the value as: `name`, `reason`, `id`, `category`, `priceMinor`,
    /// `amountMinor`.
    public let field: String
    /// The rule in words, to follow "must be".
    public let rule: String

    public init(field: String, rule: String) {
        self.field = field
        self.rule = rule
    }
}
