import RoutemapJSON

/// A request a screen's control sends, as a template, so the client hardcodes no endpoint.
///
/// `path` and the strings in `body` may hold placeholders the client fills from what is on
/// screen (`{billId}`, `{item.id}`, `{value.quantity}`, `{payload.totalMinor}`): the README's
/// "Screen actions" section defines them.
public struct ScreenAction: Sendable, Hashable {
    /// What the control does, stable for the client to bind a button to ("addItem", "pay").
    public var name: String { didSet { encode() } }
    public var method: String { didSet { encode() } }
    public var path: String { didSet { encode() } }
    /// The payload list whose rows carry this control ("items"), when it acts on one row.
    public var row: String? { didSet { encode() } }
    public var body: JSON? { didSet { encode() } }
    /// Header fields to send, as templates (`{"Idempotency-Key": "{idempotencyKey}"}`).
    public var headers: [String: String] { didSet { encode() } }

    /// `json`, encoded when the action is made and again whenever it changes. Actions are
    /// templates, mostly declared once per screen, so a response splices these bytes in instead
    /// of building and encoding the same object on every request.
    private(set) var encoded: JSON = .null

    public init(name: String, method: String, path: String, row: String? = nil, body: JSON? = nil, headers: [String: String] = [:]) {
        self.name = name
        self.method = method
        self.path = path
        self.row = row
        self.body = body
        self.headers = headers
        encode()
    }

    private mutating func encode() {
        encoded = .fragment(JSONFragment(json))
    }

    // Equality and hashing over the fields only: `encoded` is derived from them.

    public static func == (lhs: ScreenAction, rhs: ScreenAction) -> Bool {
        (lhs.name, lhs.method, lhs.path, lhs.row, lhs.body, lhs.headers) == (rhs.name, rhs.method, rhs.path, rhs.row, rhs.body, rhs.headers)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(method)
        hasher.combine(path)
        hasher.combine(row)
        hasher.combine(body)
        hasher.combine(headers)
    }
}
