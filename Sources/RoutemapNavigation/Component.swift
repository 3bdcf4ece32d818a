import RoutemapJSON

/// One node of a declarative screen: a small vocabulary any client can draw without a native
/// screen for the route (docs/navigation.md, "Declarative screens").
public indirect enum Component: Sendable, Hashable {
    /// A group of components under an optional heading.
    case section(title: String?, children: [Component])
    /// A line with a leading title, an optional secondary line and an optional trailing value.
    case row(title: String, detail: String? = nil, value: String? = nil)
    /// Text in one of the text styles.
    case text(String, style: TextStyle = .body)
    /// An image by URL, with its accessibility text.
    case image(url: String, alt: String)
    /// A button that sends the screen action named `action` (one of the screen's `actions`).
    /// A button acting on one row gives the row's `item` (its fields fill the action's
    /// `{item.FIELD}` placeholders, e.g. `["lineId": "…"]`); `values` fill `{value.NAME}`
    /// (`["quantity": 3]` for a "+1" control), and the client asks the user for the others.
    case button(title: String, action: String, style: ButtonStyle = .primary, item: JSONObject? = nil, values: JSONObject? = nil)
    /// A separating line.
    case divider

    public enum TextStyle: String, Sendable, Hashable, CaseIterable { case headline, body, caption }
    public enum ButtonStyle: String, Sendable, Hashable, CaseIterable { case primary, secondary, destructive }

    /// `{"type": "row", "title": …}`: the member `type` names the component.
    public var json: JSON {
        switch self {
        case .section(let title, let children):
            var object: JSONObject = ["type": "section"]
            if let title { object.append("title", .string(title)) }
            object.append("children", .array(children.map(\.json)))
            return .object(object)
        case .row(let title, let detail, let value):
            var object: JSONObject = ["type": "row", "title": .string(title)]
            if let detail { object.append("detail", .string(detail)) }
            if let value { object.append("value", .string(value)) }
            return .object(object)
        case .text(let text, let style):
            return ["type": "text", "text": .string(text), "style": .string(style.rawValue)]
        case .image(let url, let alt):
            return ["type": "image", "url": .string(url), "alt": .string(alt)]
        case .button(let title, let action, let style, let item, let values):
            var object: JSONObject = ["type": "button", "title": .string(title), "action": .string(action), "style": .string(style.rawValue)]
            if let item { object.append("item", .object(item)) }
            if let values { object.append("values", .object(values)) }
            return .object(object)
        case .divider:
            return ["type": "divider"]
        }
    }
}
