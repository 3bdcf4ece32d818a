import RoutemapHTTP
import RoutemapDomain

extension RequestBody {
    /// A required name people read, by the rule names follow everywhere (``DisplayName``).
    /// Checked here, before the request goes on, with the domain's rule and refusal.
    package func displayName(_ name: String) throws -> String {
        try DisplayName.checked(try anyString(name), field: name)
    }
}
