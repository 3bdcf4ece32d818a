/// `POST /v1/devices`'s answer: the device and its bearer token, shown this once.
public struct EnrolledDevice: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var deviceId: String
    public var name: String
    public var role: DeviceRole
    public var token: String

    enum CodingKeys: String, CodingKey, CaseIterable { case deviceId, name, role, token }
}

/// `GET /v1/menu/items`.
public struct MenuListing: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var items: [MenuItem]

    enum CodingKeys: String, CodingKey, CaseIterable { case items }
}

/// A bill endpoint's answer: the bill and the steps that show it.
public struct BillAndNavigation: Codable, Sendable, Hashable, WireObjectWithKeys, NavigatingAnswer {
    public var bill: Bill
    public var navigation: [Step]

    public var stack: [StackEntry]? { nil }

    enum CodingKeys: String, CodingKey, CaseIterable { case bill, navigation }
}

/// `POST /v1/bills/{billId}/pay`'s answer.
public struct PaymentAnswer: Codable, Sendable, Hashable, WireObjectWithKeys, NavigatingAnswer {
    public var payment: Payment
    /// The paid bill.
    public var bill: Bill
    /// The new open bill the bill screen now shows.
    public var nextBill: Bill
    public var navigation: [Step]

    public var stack: [StackEntry]? { nil }

    enum CodingKeys: String, CodingKey, CaseIterable { case payment, bill, nextBill, navigation }
}

/// `POST /v1/bills/{billId}/void`'s answer.
public struct VoidAnswer: Codable, Sendable, Hashable, WireObjectWithKeys, NavigatingAnswer {
    /// The voided bill.
    public var bill: Bill
    /// The device's current bill afterwards, which the bill screen now shows.
    public var nextBill: Bill
    public var navigation: [Step]

    public var stack: [StackEntry]? { nil }

    enum CodingKeys: String, CodingKey, CaseIterable { case bill, nextBill, navigation }
}

/// `GET /v1/launch`, `POST /v1/navigate`, `GET /v1/resolve`: the steps and the stack after them.
public struct NavigationAnswer: Codable, Sendable, Hashable, WireObjectWithKeys, NavigatingAnswer {
    public var navigation: [Step]
    public var stack: [StackEntry]?

    public init(navigation: [Step], stack: [StackEntry]) {
        self.navigation = navigation
        self.stack = stack
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        navigation = try container.decode([Step].self, forKey: .navigation)
        stack = try container.decode([StackEntry].self, forKey: .stack)
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case navigation, stack }
}

/// An answer that carries navigation steps (and, for walks and launch, the stack after them).
public protocol NavigatingAnswer: Sendable {
    var navigation: [Step] { get }
    /// The stack after the steps, when the answer says it.
    var stack: [StackEntry]? { get }
}

/// `GET /healthz`.
public struct HealthStatus: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var status: String

    enum CodingKeys: String, CodingKey, CaseIterable { case status }
}
