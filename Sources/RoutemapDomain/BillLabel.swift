/// A bill's name, as a cashier tells open bills apart ("Table 4", "Sam's tab"): plain text of 1
/// to ``maxCharacters`` characters, counted as Unicode scalars, without U+0000 and without
/// whitespace around it (``TrimmedText``'s rule, as a line's ``LineNote``).
///
/// What a caller writes is trimmed (``parse(_:)``): text that is only whitespace, or empty, is
/// no label. Labels are not unique: two open bills may both be "Table 4" (a second round at the
/// same table, a name said twice), and the bill's id stays what names it to the server.
public struct BillLabel: Sendable, Hashable {
    /// The longest label, in Unicode scalars, before and after trimming. A label is a name, read
    /// at a glance at the head of a list row and a bill screen: 40 holds "Table 12, window, birthday"
    /// with room to spare, fits a phone's list row and one line of an 80 mm receipt printer (42
    /// columns) uncut; anything longer is an instruction, which is a line's note.
    public static let maxCharacters = 40

    /// The rule in words, for refusals: "must be …".
    public static let rule = "at most \(maxCharacters) characters, without U+0000"

    /// The label's text: trimmed, 1 to ``maxCharacters`` scalars, no U+0000.
    public let text: String

    private init(text: String) {
        self.text = text
    }

    /// The label `raw` makes: `nil` when it is empty or only whitespace (no label), else `raw`
    /// without the whitespace around it. Throws ``InvalidInput`` (field `label`) when `raw` is
    /// longer than ``maxCharacters`` or holds U+0000.
    public static func parse(_ raw: String) throws(InvalidInput) -> BillLabel? {
        try TrimmedText.parse(raw, maxCharacters: maxCharacters, field: "label", rule: rule).map(BillLabel.init(text:))
    }

    /// `text` as a stored label, or `nil` when it is not one (``parse(_:)`` would change it).
    public init?(stored text: String) {
        guard let label = try? BillLabel.parse(text), label.text == text else { return nil }
        self = label
    }
}
