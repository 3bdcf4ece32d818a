/// Who sold: the shop's name, address and tax id as its receipts print them, from the server's
/// settings (`--shop-name`, `--shop-address`, `--shop-tax-id`). Each is optional: a receipt
/// leaves out what the shop did not set.
public struct ShopDetails: Sendable, Hashable {
    public let name: String?
    /// One line ("12 Harbour Street, Bristol BS1 4RN"): a receipt prints it as given.
    public let address: String?
    /// The shop's tax or VAT registration number, as the tax office writes it.
    public let taxId: String?

    /// The longest detail, in characters.
    public static let maxCharacters = 200

    /// The rule for each detail in words, for refusals: "must be …".
    public static let rule = DisplayName.rule(maxCharacters: maxCharacters)

    /// Whether `text` may be a detail: ``DisplayName``'s rule (one visible line, no control
    /// characters) with up to ``maxCharacters`` characters.
    public static func isValid(_ text: String) -> Bool {
        DisplayName.isValid(text, maxCharacters: maxCharacters)
    }

    /// The details given; throws ``InvalidInput`` (naming `name`, `address` or `taxId`) for one
    /// that breaks ``isValid(_:)``.
    public init(name: String? = nil, address: String? = nil, taxId: String? = nil) throws(InvalidInput) {
        for (field, value) in [("name", name), ("address", address), ("taxId", taxId)] {
            if let value, !Self.isValid(value) { throw InvalidInput(field: field, rule: Self.rule) }
        }
        self.name = name
        self.address = address
        self.taxId = taxId
    }

    /// No details: a receipt with no shop header.
    public init() {
        name = nil
        address = nil
        taxId = nil
    }
}
