/// One entry of the app's navigation stack: a route, the inputs its screen was shown with, and
/// whether it was opened with a `sub` walk (shown over the entry below it rather than under its
/// registered parent). Answers list the stack from the root to the top.
///
/// On the wire an entry is `{"route": "bill", "inputs": {"billId": "bill_…"}}` (with
/// `"sub": true` for a `sub` entry). The request forms decode too, as entries with no inputs
/// known: an object without `inputs`, and the older string (`"bill"`, `"sub:orderSummary"`).
public struct StackEntry: Codable, Sendable, Hashable, WireObjectWithKeys, CustomStringConvertible {
    public var route: RouteID
    public var inputs: [String: String]
    public var sub: Bool

    public init(route: RouteID, inputs: [String: String] = [:], sub: Bool = false) {
        self.route = route
        self.inputs = inputs
        self.sub = sub
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case route, inputs, sub }

    private static let legacySubPrefix = "sub:"

    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            let sub = text.hasPrefix(Self.legacySubPrefix)
            self.init(route: sub ? String(text.dropFirst(Self.legacySubPrefix.count)) : text, sub: sub)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            route: try container.decode(String.self, forKey: .route),
            inputs: try container.decodeIfPresent([String: String].self, forKey: .inputs) ?? [:],
            sub: try container.decodeIfPresent(Bool.self, forKey: .sub) ?? false)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(route, forKey: .route)
        try container.encode(inputs, forKey: .inputs)
        if sub { try container.encode(true, forKey: .sub) }
    }

    /// `bill{billId=bill_1}`, `sub:orderSummary`: for messages and test failures.
    public var description: String {
        let inputText = inputs.isEmpty ? "" : "{" + inputs.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") + "}"
        return (sub ? Self.legacySubPrefix : "") + route + inputText
    }
}
