/// A device's cash drawer shift and its cash-up (`Shift` in openapi.yaml): the sums of what the
/// device did while the shift was open, the cash its drawer should hold, and once closed the
/// count and how far it is from that (above 0 over, below 0 short).
public struct Shift: Codable, Sendable, Hashable, WireObjectWithKeys {
    /// `shift_…`.
    public var shiftId: String
    /// The device whose drawer it is, which opened it and closes it.
    public var deviceId: String
    public var status: ShiftStatus
    public var currency: String
    /// RFC 3339 date-time, as the server wrote it.
    public var openedAt: String
    public var openingFloatMinor: Int64
    /// The device's cash payments, and what they left in the drawer (amounts and cash tips).
    public var cashPayments: Int
    public var cashTakenMinor: Int64
    /// The cash refunds the device made.
    public var cashRefunds: Int
    public var cashRefundedMinor: Int64
    public var payIns: Int
    public var payInsMinor: Int64
    public var payOuts: Int
    public var payOutsMinor: Int64
    /// The device's card payments and what they charged (amounts and tips): not in the drawer.
    public var cardPayments: Int
    public var cardTakenMinor: Int64
    /// `cashPayments + cardPayments`.
    public var paymentsCount: Int
    /// Float + cash taken − cash refunded + pay-ins − pay-outs; fixed at the close.
    public var expectedCashMinor: Int64
    /// Once closed: when, the cash counted, and counted − expected.
    public var closedAt: String?
    public var countedCashMinor: Int64?
    public var varianceMinor: Int64?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case shiftId, deviceId, status, currency, openedAt, openingFloatMinor, cashPayments, cashTakenMinor
        case cashRefunds, cashRefundedMinor, payIns, payInsMinor, payOuts, payOutsMinor, cardPayments, cardTakenMinor, paymentsCount
        case expectedCashMinor, closedAt, countedCashMinor, varianceMinor
    }
}

/// Whether a shift is still counting its device's cash.
public enum ShiftStatus: OpenEnumeration {
    case open, closed
    case unknown(String)

    public static let knownCases: [ShiftStatus] = [.open, .closed]

    public var rawValue: String {
        switch self {
        case .open: "open"
        case .closed: "closed"
        case .unknown(let value): value
        }
    }
}

/// Cash put into (`payIn`) or taken out of (`payOut`) a shift's drawer.
public enum DrawerMovementKind: OpenEnumeration {
    case payIn, payOut
    case unknown(String)

    public static let knownCases: [DrawerMovementKind] = [.payIn, .payOut]

    public var rawValue: String {
        switch self {
        case .payIn: "pay_in"
        case .payOut: "pay_out"
        case .unknown(let value): value
        }
    }
}

/// Cash paid into or out of a shift's drawer for something other than a sale (`DrawerMovement` in openapi.yaml).
public struct DrawerMovement: Codable, Sendable, Hashable, WireObjectWithKeys {
    /// `mov_…`.
    public var movementId: String
    public var shiftId: String
    public var kind: DrawerMovementKind
    public var amountMinor: Int64
    public var reason: String
    public var deviceId: String
    /// RFC 3339 date-time, as the server wrote it.
    public var createdAt: String

    enum CodingKeys: String, CodingKey, CaseIterable { case movementId, shiftId, kind, amountMinor, reason, deviceId, createdAt }
}

/// `POST /v1/shifts`: the cash put in the drawer to open the shift.
public struct OpenShiftRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var openingFloatMinor: Int64

    public init(openingFloatMinor: Int64) {
        self.openingFloatMinor = openingFloatMinor
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case openingFloatMinor }
}

/// `POST /v1/shifts/current/movements`: cash paid in or out, and why.
public struct DrawerMovementRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var kind: DrawerMovementKind
    /// At least 1; a pay-out at most what the drawer should hold.
    public var amountMinor: Int64
    /// 1 to 200 characters, as a void's reason.
    public var reason: String

    public init(kind: DrawerMovementKind, amountMinor: Int64, reason: String) {
        self.kind = kind
        self.amountMinor = amountMinor
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case kind, amountMinor, reason }
}

/// `POST /v1/shifts/current/close`: the cash counted in the drawer.
public struct CloseShiftRequest: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var countedCashMinor: Int64

    public init(countedCashMinor: Int64) {
        self.countedCashMinor = countedCashMinor
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case countedCashMinor }
}

/// The answer to `POST /v1/shifts/current/movements`: the movement, the shift after it, and
/// the steps that show it (`replace drawer`).
public struct DrawerMovementAnswer: Codable, Sendable, Hashable, WireObjectWithKeys, NavigatingAnswer {
    public var movement: DrawerMovement
    public var shift: Shift
    public var navigation: [Step]

    public var stack: [StackEntry]? { nil }

    enum CodingKeys: String, CodingKey, CaseIterable { case movement, shift, navigation }
}

/// The answer to opening or closing a shift (`ShiftAnswer` in openapi.yaml): the shift's members
/// beside `navigation`, the steps that show the drawer after the change (`replace drawer`). The
/// shift's members read as the shift's own (`answer.status`, `answer.varianceMinor`).
@dynamicMemberLookup
public struct ShiftAnswer: Codable, Sendable, Hashable, NavigatingAnswer {
    public var shift: Shift
    public var navigation: [Step]

    public var stack: [StackEntry]? { nil }

    public subscript<Value>(dynamicMember member: KeyPath<Shift, Value>) -> Value { shift[keyPath: member] }

    private enum NavigationKey: String, CodingKey { case navigation }

    public init(from decoder: any Decoder) throws {
        shift = try Shift(from: decoder)
        navigation = try decoder.container(keyedBy: NavigationKey.self).decode([Step].self, forKey: .navigation)
    }

    public func encode(to encoder: any Encoder) throws {
        try shift.encode(to: encoder)
        var container = encoder.container(keyedBy: NavigationKey.self)
        try container.encode(navigation, forKey: .navigation)
    }
}

/// The drawer screen's payload (`DrawerPayload` in openapi.yaml): the device's open shift, or
/// with none open the last one closed, so the cashier sees its cash-up.
public struct DrawerPayload: Codable, Sendable, Hashable, WireObjectWithKeys {
    /// The server's currency, for the amounts the cashier enters.
    public var currency: String
    /// The open shift, as `GET /v1/shifts/current` answers it; `nil` when none is open.
    public var shift: Shift?
    /// With no shift open, the most recently closed one's report; `nil` before the first, and
    /// while a shift is open.
    public var lastClosedShift: Shift?
    /// The declarative rendering, for a client without a native drawer screen.
    public var components: [Component]?

    enum CodingKeys: String, CodingKey, CaseIterable { case currency, shift, lastClosedShift, components }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        currency = try container.decode(String.self, forKey: .currency)
        // Required, and `null` when there is none: a missing member is an error, not `nil`.
        shift = try container.decode(Shift?.self, forKey: .shift)
        lastClosedShift = try container.decode(Shift?.self, forKey: .lastClosedShift)
        components = try container.decodeIfPresent([Component].self, forKey: .components)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(currency, forKey: .currency)
        try container.encode(shift, forKey: .shift)
        try container.encode(lastClosedShift, forKey: .lastClosedShift)
        try container.encodeIfPresent(components, forKey: .components)
    }
}

/// `GET /v1/shifts` (managers only): a page of shifts, newest first (`ShiftList` in openapi.yaml).
public struct ShiftList: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var shifts: [ShiftListEntry]
    /// Present when more shifts follow: the next page's `cursor`.
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case shifts, nextCursor }
}

/// A listed shift, as stored, without its sums (`ShiftListEntry` in openapi.yaml).
public struct ShiftListEntry: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var shiftId: String
    public var deviceId: String
    public var status: ShiftStatus
    public var openedAt: String
    public var openingFloatMinor: Int64
    /// Once closed: when, the count, the expected cash fixed then, and counted − expected.
    public var closedAt: String?
    public var countedCashMinor: Int64?
    public var expectedCashMinor: Int64?
    public var varianceMinor: Int64?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case shiftId, deviceId, status, openedAt, openingFloatMinor, closedAt, countedCashMinor, expectedCashMinor
        case varianceMinor
    }
}
