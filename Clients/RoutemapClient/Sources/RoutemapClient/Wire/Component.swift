/// One node of a declarative screen's component tree (docs/navigation.md, "Declarative
/// screens"), named on the wire by its `type` member. A type this client does not know decodes
/// to `unknown`, which a generic renderer skips.
public indirect enum Component: Sendable, Hashable, Codable {
    case section(Section)
    case row(Row)
    case text(Text)
    case image(Image)
    case button(Button)
    case divider
    /// A component type a newer server sends; draw nothing for it.
    case unknown(type: String)

    /// A group of components under an optional heading.
    public struct Section: Codable, Sendable, Hashable, WireObjectWithKeys {
        public var title: String?
        public var children: [Component]
        enum CodingKeys: String, CodingKey, CaseIterable { case title, children }
    }

    /// A line with a title, an optional second line and an optional trailing value.
    public struct Row: Codable, Sendable, Hashable, WireObjectWithKeys {
        public var title: String
        public var detail: String?
        /// Trailing text, e.g. an amount.
        public var value: String?
        enum CodingKeys: String, CodingKey, CaseIterable { case title, detail, value }
    }

    public struct Text: Codable, Sendable, Hashable, WireObjectWithKeys {
        public var text: String
        public var style: TextStyle
        enum CodingKeys: String, CodingKey, CaseIterable { case text, style }
    }

    public struct Image: Codable, Sendable, Hashable, WireObjectWithKeys {
        public var url: String
        /// Accessibility text.
        public var alt: String
        enum CodingKeys: String, CodingKey, CaseIterable { case url, alt }
    }

    /// A button that sends the screen action named `action`. Prepare it with
    /// `NavigationSession.prepare(_:on:values:)`, which fills the action from `item` and `values`.
    public struct Button: Codable, Sendable, Hashable, WireObjectWithKeys {
        public var title: String
        public var action: String
        public var style: ButtonStyle
        /// The row the button acts on: its fields fill the action's `{item.FIELD}` placeholders.
        public var item: [String: JSONValue]?
        /// Values the button supplies for `{value.NAME}`; the app asks the user for the others.
        public var values: [String: JSONValue]?
        enum CodingKeys: String, CodingKey, CaseIterable { case title, action, style, item, values }
    }

    public enum TextStyle: OpenEnumeration {
        case headline, body, caption
        case unknown(String)
        public static let knownCases: [TextStyle] = [.headline, .body, .caption]
        public var rawValue: String {
            switch self {
            case .headline: "headline"
            case .body: "body"
            case .caption: "caption"
            case .unknown(let value): value
            }
        }
    }

    public enum ButtonStyle: OpenEnumeration {
        case primary, secondary, destructive
        case unknown(String)
        public static let knownCases: [ButtonStyle] = [.primary, .secondary, .destructive]
        public var rawValue: String {
            switch self {
            case .primary: "primary"
            case .secondary: "secondary"
            case .destructive: "destructive"
            case .unknown(let value): value
            }
        }
    }

    /// The `type` member of each known component.
    public static let knownTypes = ["section", "row", "text", "image", "button", "divider"]

    private enum TypeKey: String, CodingKey { case type }

    public init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
        switch type {
        case "section": self = .section(try Section(from: decoder))
        case "row": self = .row(try Row(from: decoder))
        case "text": self = .text(try Text(from: decoder))
        case "image": self = .image(try Image(from: decoder))
        case "button": self = .button(try Button(from: decoder))
        case "divider": self = .divider
        default: self = .unknown(type: type)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(type, forKey: .type)
        switch self {
        case .section(let section): try section.encode(to: encoder)
        case .row(let row): try row.encode(to: encoder)
        case .text(let text): try text.encode(to: encoder)
        case .image(let image): try image.encode(to: encoder)
        case .button(let button): try button.encode(to: encoder)
        case .divider, .unknown: break
        }
    }

    /// The wire `type` of this component.
    public var type: String {
        switch self {
        case .section: "section"
        case .row: "row"
        case .text: "text"
        case .image: "image"
        case .button: "button"
        case .divider: "divider"
        case .unknown(let type): type
        }
    }
}
