/// A cashier's instruction on a bill line ("no onions", "extra hot"): plain text of 1 to
/// ``maxCharacters`` characters, counted as Unicode scalars (as JSON Schema's `maxLength` and the
/// databases' length checks count them), without U+0000 (never text a person wrote, and
/// PostgreSQL cannot store it), and without whitespace around it.
///
/// What a caller writes is trimmed (``parse(_:)``): text that is only whitespace, or empty, is
/// no note. A line's note is part of its identity: "latte" and "latte, extra hot" are two lines
/// (``BillLine``).
public struct LineNote: Sendable, Hashable {
    /// The longest note, in Unicode scalars, before and after trimming.
    public static let maxCharacters = 140

    /// The rule in words, for refusals: "must be …".
    public static let rule = "at most \(maxCharacters) characters, without U+0000"

    /// The note's text: trimmed, 1 to ``maxCharacters`` scalars, no U+0000.
    public let text: String

    private init(text: String) {
        self.text = text
    }

    /// The note `raw` makes: `nil` when it is empty or only whitespace (no note), else `raw`
    /// without the whitespace around it. Throws ``InvalidInput`` (field `note`) when `raw` is
    /// longer than ``maxCharacters`` or holds U+0000: the rule is on what was written, as the
    /// request's schema states it.
    public static func parse(_ raw: String) throws(InvalidInput) -> LineNote? {
        try TrimmedText.parse(raw, maxCharacters: maxCharacters, field: "note", rule: rule).map(LineNote.init(text:))
    }

    /// `text` as a stored note, or `nil` when it is not one (``parse(_:)`` would change it).
    public init?(stored text: String) {
        guard let note = try? LineNote.parse(text), note.text == text else { return nil }
        self = note
    }
}
