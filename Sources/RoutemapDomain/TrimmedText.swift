/// The rule cashiers' short texts share (``LineNote``, ``BillLabel``): what a caller writes is
/// trimmed of surrounding whitespace, text that is only whitespace (or empty) is none, and what
/// was written holds at most a given number of Unicode scalars (as JSON Schema's `maxLength` and
/// the databases' length checks count them) and no U+0000 (never text a person wrote, and
/// PostgreSQL cannot store it).
enum TrimmedText {
    /// `raw` without the whitespace around it, or `nil` when nothing is left. Throws
    /// ``InvalidInput`` (`field`, `rule`) when `raw` is longer than `maxCharacters` or holds
    /// U+0000: the rule is on what was written, as the request's schema states it.
    static func parse(_ raw: String, maxCharacters: Int, field: String, rule: String) throws(InvalidInput) -> String? {
        let scalars = raw.unicodeScalars
        guard scalars.count <= maxCharacters, !scalars.contains("\u{0}") else { throw InvalidInput(field: field, rule: rule) }
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }), let last = scalars.lastIndex(where: { !isTrimmed($0) }) else {
            return nil
        }
        return String(scalars[first...last])
    }

    /// The whitespace trimmed: Unicode's White_Space and the spaces a name does not count as
    /// visible (``DisplayName/isSpace(_:)``: the zero-width space, the byte order mark).
    static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || DisplayName.isSpace(scalar)
    }
}
