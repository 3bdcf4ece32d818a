/// The rule for the ids of menu items and categories (and the category an item names): a
/// lowercase slug, because they appear in paths and queries. The same from the API and the
/// command line.
public enum MenuSlug {
    /// The rule in words, for refusals: "must be …".
    public static let rule = "1 to 64 of a-z, 0-9 and '-', not starting with '-'"

    /// Whether `text` is 1 to 64 of `a-z`, `0-9` and `-`, not starting with `-`.
    public static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        return (1...64).contains(bytes.count) && bytes.first != 0x2D
            && bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }

    /// `text`, if it is a slug; else throws ``InvalidInput`` for `field`.
    @discardableResult
    public static func checked(_ text: String, field: String) throws(InvalidInput) -> String {
        guard isValid(text) else { throw InvalidInput(field: field, rule: rule) }
        return text
    }
}
