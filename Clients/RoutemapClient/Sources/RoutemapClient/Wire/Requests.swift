/// `POST /v1/devices`: enroll a till with the store's enrollment code.
public struct EnrollRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var name: String
    public var enrollmentCode: String
    /// `till` when absent; the code must be the role's.
    public var role: DeviceRole?

    public init(name: String, enrollmentCode: String, role: DeviceRole? = nil) {
        self.name = name
        self.enrollmentCode = enrollmentCode
        self.role = role
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case name, enrollmentCode, role }
}

/// `POST /v1/bills/{billId}/items`.
public struct AddItemRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var menuItemId: String
    public var quantity: Int
    /// The ids of the item's modifier options chosen; `nil` for the menu's one tap. Sent (even
    /// `[]`) by the modifier sheet, whose answer then dismisses it.
    public var modifiers: [String]?
    /// A note on the line ("extra hot"): at most 140 characters, trimmed by the server; `nil`,
    /// empty or blank is none. An add raises a line only with the same note.
    public var note: String?

    public init(menuItemId: String, quantity: Int, modifiers: [String]? = nil, note: String? = nil) {
        self.menuItemId = menuItemId
        self.quantity = quantity
        self.modifiers = modifiers
        self.note = note
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case menuItemId, quantity, modifiers, note }
}

/// `PATCH /v1/bills/{billId}/items/{lineId}`: a line's new quantity, its new note, or both (at
/// least one). A note of `""` (or only whitespace) removes the line's note; `nil` leaves it.
public struct UpdateItemRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var quantity: Int?
    public var note: String?

    public init(quantity: Int? = nil, note: String? = nil) {
        self.quantity = quantity
        self.note = note
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case quantity, note }
}

/// `POST /v1/bills`'s optional body: the new bill's name ("Table 4"), at most 40 characters,
/// trimmed by the server; `nil` (left out), empty or blank is none.
public struct CreateBillRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var label: String?

    public init(label: String? = nil) { self.label = label }

    enum CodingKeys: String, CodingKey, CaseIterable { case label }
}

/// `PUT /v1/bills/{billId}/label`: the bill's new name, at most 40 characters, trimmed by the
/// server; `nil` (sent as `null`), empty or blank takes the label off.
public struct SetLabelRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var label: String?

    public init(label: String?) { self.label = label }

    enum CodingKeys: String, CodingKey, CaseIterable { case label }

    /// `label` is required, `null` allowed.
    public init(from decoder: any Decoder) throws {
        label = try decoder.container(keyedBy: CodingKeys.self).decode(String?.self, forKey: .label)
    }

    /// Always writes `label`, `null` for none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
    }
}

/// `POST /v1/bills/{billId}/void`: why the bill is voided (1 to 200 characters).
public struct VoidRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var reason: String

    public init(reason: String) { self.reason = reason }

    enum CodingKeys: String, CodingKey, CaseIterable { case reason }
}

/// `PUT /v1/bills/{billId}/discount`: the discount, exactly one of `percentBps` and
/// `amountMinor`, with a reason (1 to 200 characters).
public typealias DiscountRequest = Discount

/// `POST /v1/bills/{billId}/transfer` (managers only): the device to give the bill to.
public struct TransferRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var deviceId: String

    public init(deviceId: String) { self.deviceId = deviceId }

    enum CodingKeys: String, CodingKey, CaseIterable { case deviceId }
}

/// `POST /v1/bills/{billId}/pay`. `amountMinor` confirms what is due that the app showed (the
/// bill's `dueMinor`), or with `partial` is the part paid now (split tender); `tipMinor` is the
/// customer's tip on top of it.
public struct PayRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var method: PaymentMethod
    public var amountMinor: Int64
    /// Cash handed over; nil means the amount and tip. For card, nil or the amount and tip.
    public var tenderedMinor: Int64?
    /// The tip, 0 to 10^13 minor units; nil (not sent) means none.
    public var tipMinor: Int64?
    /// `true`: pay part of what is due (1 to `dueMinor`); the bill stays checked out until its
    /// payments make its total. nil (not sent): the whole amount due.
    public var partial: Bool?

    public init(method: PaymentMethod, amountMinor: Int64, tenderedMinor: Int64? = nil, tipMinor: Int64? = nil, partial: Bool? = nil) {
        self.method = method
        self.amountMinor = amountMinor
        self.tenderedMinor = tenderedMinor
        self.tipMinor = tipMinor
        self.partial = partial
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case method, amountMinor, tenderedMinor, tipMinor, partial }
}

/// `POST /v1/navigate`: a walk from the app's stack.
public struct NavigateRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var from: NavigationOrigin
    /// The target route; not needed for mode `parent`.
    public var to: RouteID?
    public var mode: NavigationMode?
    /// Inputs for the target stack's screens, e.g. `["billId": "bill_…"]`.
    public var input: [String: String]?

    public init(from: NavigationOrigin, to: RouteID? = nil, mode: NavigationMode? = nil, input: [String: String]? = nil) {
        self.from = from
        self.to = to
        self.mode = mode
        self.input = input
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case from, to, mode, input }
}

/// Where a walk starts: the app's stack, or one route id meaning that route's registered path.
public enum NavigationOrigin: Sendable, Hashable, Codable {
    case stack([StackEntry])
    case route(RouteID)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let route = try? container.decode(String.self) {
            self = .route(route)
        } else {
            self = .stack(try container.decode([StackEntry].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .stack(let entries): try container.encode(entries)
        case .route(let route): try container.encode(route)
        }
    }
}
