/// What a route shows: its type, who draws it, its data and the requests its controls send.
public struct Screen: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var type: ScreenType
    public var renderer: Renderer
    public var title: String
    /// The data, by type: see `menuPayload`, `billPayload`, `orderSummaryPayload`, `drawerPayload`, `components`.
    public var payload: JSONValue
    public var actions: [ScreenAction]
    /// The navigation inputs this screen provides to actions of screens on display
    /// (`["billId": "bill_…"]`); empty when it provides none.
    public var inputs: [String: String]

    public init(
        type: ScreenType, renderer: Renderer = .native, title: String, payload: JSONValue = [:], actions: [ScreenAction] = [],
        inputs: [String: String] = [:]
    ) {
        self.type = type
        self.renderer = renderer
        self.title = title
        self.payload = payload
        self.actions = actions
        self.inputs = inputs
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case type, renderer, title, payload, actions, inputs }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(ScreenType.self, forKey: .type)
        renderer = try container.decode(Renderer.self, forKey: .renderer)
        title = try container.decode(String.self, forKey: .title)
        payload = try container.decode(JSONValue.self, forKey: .payload)
        actions = try container.decode([ScreenAction].self, forKey: .actions)
        inputs = try container.decodeIfPresent([String: String].self, forKey: .inputs) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(renderer, forKey: .renderer)
        try container.encode(title, forKey: .title)
        try container.encode(payload, forKey: .payload)
        try container.encode(actions, forKey: .actions)
        if !inputs.isEmpty { try container.encode(inputs, forKey: .inputs) }
    }

    /// The action named `name` (`"pay"`), if the screen offers it.
    public func action(named name: String) -> ScreenAction? { actions.first { $0.name == name } }

    /// The menu screen's payload.
    public var menuPayload: MenuPayload { get throws { try payload.decode(MenuPayload.self) } }
    /// The bill screen's payload: the bill (also from a declarative bill screen, whose
    /// `components` it leaves out).
    public var billPayload: Bill { get throws { try payload.decode(Bill.self) } }
    /// The modifier sheet's payload.
    public var modifierSheetPayload: ModifierSheetPayload { get throws { try payload.decode(ModifierSheetPayload.self) } }
    /// The drawer screen's payload: the device's cash drawer shift.
    public var drawerPayload: DrawerPayload { get throws { try payload.decode(DrawerPayload.self) } }
    /// The order summary's payload.
    public var orderSummaryPayload: OrderSummaryPayload { get throws { try payload.decode(OrderSummaryPayload.self) } }
    /// The declarative component tree (`payload.components`), empty when there is none.
    public var components: [Component] { get throws { try payload["components"].map { try $0.decode([Component].self) } ?? [] } }
}

/// The menu screen's payload.
public struct MenuPayload: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var items: [MenuScreenItem]
    /// The component tree, only when the screen is declarative (the app has no native menu).
    public var components: [Component]?

    enum CodingKeys: String, CodingKey, CaseIterable { case items, components }
}

/// The bill screen's payload when it is declarative (the app has no native bill screen): the
/// bill's members and its component tree, side by side in one object.
public struct DeclarativeBillPayload: Codable, Sendable, Hashable, WireObject {
    public var bill: Bill
    public var components: [Component]

    /// A bill's members but `payment` (a bill screen shows no payment), and `components`.
    static var memberNames: [String] { Bill.memberNames.filter { $0 != Bill.CodingKeys.payment.stringValue } + [ComponentsKey.components.stringValue] }

    private enum ComponentsKey: String, CodingKey { case components }

    public init(bill: Bill, components: [Component]) {
        self.bill = bill
        self.components = components
    }

    public init(from decoder: any Decoder) throws {
        bill = try Bill(from: decoder)
        components = try decoder.container(keyedBy: ComponentsKey.self).decode([Component].self, forKey: .components)
    }

    public func encode(to encoder: any Encoder) throws {
        try bill.encode(to: encoder)
        var container = encoder.container(keyedBy: ComponentsKey.self)
        try container.encode(components, forKey: .components)
    }
}

/// The order summary's payload: the checked-out bill's data and its declarative rendering.
public struct OrderSummaryPayload: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var billId: String
    /// The bill's label ("Table 4"); `nil` without one (and from a server from before labels).
    public var label: String?
    public var lines: [BillLine]
    public var subtotalMinor: Int64
    /// The bill's discount, when it has one.
    public var discount: Discount?
    /// What the discount takes off the subtotal; 0 without one.
    public var discountMinor: Int64
    public var taxMinor: Int64
    public var totalMinor: Int64
    /// What earlier payments paid (split tender).
    public var paidMinor: Int64
    /// What is still due: what the `pay` action sends.
    public var dueMinor: Int64
    /// The bill's payments so far, oldest first.
    public var payments: [Payment]
    public var currency: String
    /// The tips to offer (10, 15 and 20 % of the total, rounded by the server): send the one
    /// picked as the `pay` action's `tipMinor` value.
    public var suggestedTips: [SuggestedTip]
    public var components: [Component]

    enum CodingKeys: String, CodingKey, CaseIterable { case billId, label, lines, subtotalMinor, discount, discountMinor, taxMinor, totalMinor, paidMinor, dueMinor, payments, currency,
        suggestedTips, components
    }
}

/// A tip the order summary offers: `percent` of the bill's total, in minor units.
public struct SuggestedTip: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var percent: Int
    public var tipMinor: Int64

    enum CodingKeys: String, CodingKey, CaseIterable { case percent, tipMinor }
}

/// A request a screen's control sends, as a template (README, "Screen actions"). Fill it with
/// `ActionRequest(action:…)` and send it with `NavigationSession.perform(_:)` or
/// `APIClient.send(_:)`.
public struct ScreenAction: Codable, Sendable, Hashable, WireObjectWithKeys {
    /// What the control does (`addItem`, `pay`): bind a button to it.
    public var name: String
    public var method: HTTPMethod
    /// Path template, e.g. `/v1/bills/{billId}/items`.
    public var path: String
    /// The payload list whose rows carry this control (`items`, `lines`).
    public var row: String?
    /// JSON body template.
    public var body: JSONValue?
    /// Header field templates, e.g. `["Idempotency-Key": "{idempotencyKey}"]`.
    public var headers: [String: String]?

    public init(name: String, method: HTTPMethod, path: String, row: String? = nil, body: JSONValue? = nil, headers: [String: String]? = nil) {
        self.name = name
        self.method = method
        self.path = path
        self.row = row
        self.body = body
        self.headers = headers
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case name, method, path, row, body, headers }
}

extension OrderSummaryPayload {
    /// Decodes the payload, also from a server from before split tender (a node not yet
    /// upgraded during a rollout), which sends no `paidMinor`, `dueMinor` or `payments`: nothing
    /// paid, the total due.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        billId = try container.decode(String.self, forKey: .billId)
        label = try container.decodeIfPresent(String.self, forKey: .label)
        lines = try container.decode([BillLine].self, forKey: .lines)
        subtotalMinor = try container.decode(Int64.self, forKey: .subtotalMinor)
        discount = try container.decodeIfPresent(Discount.self, forKey: .discount)
        discountMinor = try container.decode(Int64.self, forKey: .discountMinor)
        taxMinor = try container.decode(Int64.self, forKey: .taxMinor)
        totalMinor = try container.decode(Int64.self, forKey: .totalMinor)
        paidMinor = try container.decodeIfPresent(Int64.self, forKey: .paidMinor) ?? 0
        dueMinor = try container.decodeIfPresent(Int64.self, forKey: .dueMinor) ?? totalMinor
        payments = try container.decodeIfPresent([Payment].self, forKey: .payments) ?? []
        currency = try container.decode(String.self, forKey: .currency)
        suggestedTips = try container.decode([SuggestedTip].self, forKey: .suggestedTips)
        components = try container.decode([Component].self, forKey: .components)
    }
}
