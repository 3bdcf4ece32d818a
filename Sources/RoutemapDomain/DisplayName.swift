/// The rule for a name people read on a till or in a list (a device's, a menu item's, a menu
/// category's), the same from the API and the command line: 1 to 100 characters, counted as
/// Unicode scalars (as JSON Schema's `maxLength` and the database's length checks count them),
/// at least one of them visible (a blank name names nothing), and no control characters (a
/// name is shown on one line).
public enum DisplayName {
    public static let maxCharacters = 100

    /// The rule in words, for refusals: "must be …".
    public static let rule = rule(maxCharacters: maxCharacters)

    /// The rule in words with another longest length (a shop's details, ``ShopDetails``).
    public static func rule(maxCharacters: Int) -> String {
        "1 to \(maxCharacters) characters, not only spaces, without control characters"
    }

    /// `text`, if it follows the rule; else throws ``InvalidInput`` for `field`.
    @discardableResult
    public static func checked(_ text: String, field: String = "name") throws(InvalidInput) -> String {
        guard isValid(text) else { throw InvalidInput(field: field, rule: rule) }
        return text
    }

    /// Whether `text` follows the rule, or the same rule with another longest length (a shop's
    /// details, ``ShopDetails``).
    public static func isValid(_ text: String, maxCharacters: Int = maxCharacters) -> Bool {
        let scalars = text.unicodeScalars
        return (1...maxCharacters).contains(scalars.count) && hasVisibleCharacter(text)
            && !scalars.contains(where: { isControl($0) || isLineSeparator($0) })
    }

    /// Whether `text` holds a character that is neither a space nor a control character. The
    /// spaces are those of JSON Schema's `\s` (ECMAScript's), so that openapi.yaml can state
    /// the rule as a pattern that every validator reads the same way.
    public static func hasVisibleCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { !isControl($0) && !isSpace($0) }
    }

    /// The C0 and C1 controls and DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// ECMAScript's white space and line terminators beyond the C0 controls, and the zero-width
    /// space: none of them shows.
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
        default: false
        }
    }

    /// Breaks a line: a name is shown on one line.
    static func isLineSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
