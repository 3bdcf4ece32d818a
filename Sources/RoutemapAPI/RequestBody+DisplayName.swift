import RoutemapHTTP
import RoutemapDomain

extension RequestBody {
    /// A required name people read, by the rule names follow everywhere (``DisplayName``).
    package func displayName(_ name: String) throws -> String {
        let text = try anyString(name)
        guard DisplayName.isValid(text) else { throw Problem.invalidField(name, "'\(name)' must be \(DisplayName.rule).") }
        return text
    }
}
