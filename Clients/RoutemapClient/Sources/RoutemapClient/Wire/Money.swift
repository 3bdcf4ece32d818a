/// A menu item (`GET /v1/menu/items`, the menu screen's rows).
public struct MenuItem: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var id: String
    public var name: String
    public var category: String
    /// Unit price in minor units (cents).
    public var priceMinor: Int64
    /// ISO 4217 code.
    public var currency: String
    /// Unavailable items cannot be added to a bill.
    public var available: Bool
    /// What the cashier chooses when adding it, in order; empty when it has none (the server
    /// leaves the member out then, as a server from before modifiers does: both decode to none).
    public var modifierGroups: [ModifierGroup] = []
    /// How many are left on the shelf, for an item the shop counts; `nil` when it is not counted
    /// (the server leaves the member out then, as a server from before counts does). 0 or below
    /// is sold out: adding it is refused as `menu_item_unavailable`.
    public var stock: Int? = nil

    /// Whether the shop counts it and none is left.
    public var isSoldOut: Bool { stock.map { $0 <= 0 } ?? false }

    enum CodingKeys: String, CodingKey, CaseIterable { case id, name, category, priceMinor, currency, available, modifierGroups, stock }
}

extension MenuItem {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        category = try container.decode(String.self, forKey: .category)
        priceMinor = try container.decode(Int64.self, forKey: .priceMinor)
        currency = try container.decode(String.self, forKey: .currency)
        available = try container.decode(Bool.self, forKey: .available)
        modifierGroups = try container.decodeIfPresent([ModifierGroup].self, forKey: .modifierGroups) ?? []
        stock = try container.decodeIfPresent(Int.self, forKey: .stock)
    }

}

/// One line of a bill.
public struct BillLine: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var lineId: String
    public var menuItemId: String
    /// The menu item's name.
    public var name: String
    public var quantity: Int
    /// The item's price when the line was added, plus its modifiers'.
    public var unitPriceMinor: Int64
    public var lineTotalMinor: Int64
    /// The options the line was added with, their names and prices then; empty when none (the
    /// server leaves the member out then, as a server from before modifiers does: both decode to none).
    public var modifiers: [LineModifier] = []
    /// The cashier's note on the line ("extra hot"), trimmed, 1 to 140 characters; `nil` when
    /// none (the server leaves the member out then, as a server from before notes does). Part of
    /// the line: an add raises a line only with the same note.
    public var note: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case lineId, menuItemId, name, quantity, unitPriceMinor, lineTotalMinor, modifiers, note }
}

extension BillLine {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lineId = try container.decode(String.self, forKey: .lineId)
        menuItemId = try container.decode(String.self, forKey: .menuItemId)
        name = try container.decode(String.self, forKey: .name)
        quantity = try container.decode(Int.self, forKey: .quantity)
        unitPriceMinor = try container.decode(Int64.self, forKey: .unitPriceMinor)
        lineTotalMinor = try container.decode(Int64.self, forKey: .lineTotalMinor)
        modifiers = try container.decodeIfPresent([LineModifier].self, forKey: .modifiers) ?? []
        note = try container.decodeIfPresent(String.self, forKey: .note)
    }

}

/// A bill; money in minor units of `currency`, totals computed by the server.
public struct Bill: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var id: String
    public var status: BillStatus
    public var lines: [BillLine]
    /// Σ of the lines' totals, before the discount.
    public var subtotalMinor: Int64
    /// What the discount takes off the subtotal; 0 without one.
    public var discountMinor: Int64
    /// The tax, on the subtotal less the discount.
    public var taxMinor: Int64
    /// `subtotalMinor − discountMinor + taxMinor`.
    public var totalMinor: Int64
    public var currency: String
    /// Increases with every change to the bill.
    public var version: Int
    /// The bill's discount, as it was given, when it has one.
    public var discount: Discount?
    /// A voided bill's reason and time.
    public var void: BillVoid?
    /// A paid bill's payment, the one that completed it (`GET /v1/bills/{billId}` only).
    public var payment: Payment?
    /// What the bill's payments paid (split tender); its total once paid.
    public var paidMinor: Int64
    /// What is left to pay: what `pay` without `partial` must send. 0 once paid or voided.
    public var dueMinor: Int64
    /// The bill's payments, oldest first: none until it is paid or partly paid.
    public var payments: [Payment]
    /// The cashier's name for the bill ("Table 4"), trimmed, 1 to 40 characters; `nil` when it
    /// has none (the server leaves the member out then, as a server from before labels does).
    /// Not unique.
    public var label: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, status, lines, subtotalMinor, discountMinor, taxMinor, totalMinor, currency, version, discount, void, payment, paidMinor,
            dueMinor, payments, label
    }
}

extension Bill {
    /// Decodes a bill, also from a server from before split tender (a node not yet upgraded
    /// during a rollout), which sends no `paidMinor`, `dueMinor` or `payments`: a paid bill then
    /// has paid its total (by its `payment` when shown), any other nothing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        status = try container.decode(BillStatus.self, forKey: .status)
        lines = try container.decode([BillLine].self, forKey: .lines)
        subtotalMinor = try container.decode(Int64.self, forKey: .subtotalMinor)
        discountMinor = try container.decode(Int64.self, forKey: .discountMinor)
        taxMinor = try container.decode(Int64.self, forKey: .taxMinor)
        totalMinor = try container.decode(Int64.self, forKey: .totalMinor)
        currency = try container.decode(String.self, forKey: .currency)
        version = try container.decode(Int.self, forKey: .version)
        discount = try container.decodeIfPresent(Discount.self, forKey: .discount)
        void = try container.decodeIfPresent(BillVoid.self, forKey: .void)
        payment = try container.decodeIfPresent(Payment.self, forKey: .payment)
        let paid = status == .paid
        payments = try container.decodeIfPresent([Payment].self, forKey: .payments) ?? (paid ? payment.map { [$0] } ?? [] : [])
        paidMinor = try container.decodeIfPresent(Int64.self, forKey: .paidMinor) ?? (paid ? totalMinor : 0)
        dueMinor = try container.decodeIfPresent(Int64.self, forKey: .dueMinor) ?? (status == .open || status == .checkedOut ? totalMinor : 0)
        label = try container.decodeIfPresent(String.self, forKey: .label)
    }
}

/// A bill's one discount as it was given: a percentage of the subtotal in basis points or an
/// amount off it (exactly one of them), with its reason.
public struct Discount: Codable, Sendable, Hashable, WireObjectWithKeys {
    /// Basis points of the subtotal: 1000 = 10 %.
    public var percentBps: Int?
    /// An amount off the subtotal (no more than the subtotal is taken off: ``Bill/discountMinor``).
    public var amountMinor: Int64?
    /// Why it was given (1 to 200 characters).
    public var reason: String

    /// `percentBps` of the subtotal (1 to 10 000), for `reason`.
    public static func percent(basisPoints: Int, reason: String) -> Discount {
        Discount(percentBps: basisPoints, amountMinor: nil, reason: reason)
    }

    /// `amountMinor` off the subtotal (at least 1), for `reason`.
    public static func amount(_ amountMinor: Int64, reason: String) -> Discount {
        Discount(percentBps: nil, amountMinor: amountMinor, reason: reason)
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case percentBps, amountMinor, reason }
}

/// Why and when a bill was voided.
public struct BillVoid: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var reason: String
    /// RFC 3339 date-time, as the server wrote it.
    public var voidedAt: String

    enum CodingKeys: String, CodingKey, CaseIterable { case reason, voidedAt }
}

/// `GET /v1/bills`: a page of the device's open and checked-out bills, newest first (also the
/// `billList` screen's payload, with its `components`).
public struct BillList: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var bills: [BillListEntry]
    /// Present when more bills follow: the `cursor` of the next page.
    public var nextCursor: String?
    /// On the `billList` screen only: its component tree.
    public var components: [Component]?

    enum CodingKeys: String, CodingKey, CaseIterable { case bills, nextCursor, components }
}

/// A listed bill, without its lines; its totals are the bill's own (``Bill``'s).
public struct BillListEntry: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var id: String
    public var status: BillStatus
    public var lineCount: Int
    /// Σ of the lines' totals, before the discount.
    public var subtotalMinor: Int64
    /// What the discount takes off the subtotal; 0 without one.
    public var discountMinor: Int64
    /// The tax, on the subtotal less the discount.
    public var taxMinor: Int64
    /// `subtotalMinor − discountMinor + taxMinor`.
    public var totalMinor: Int64
    public var currency: String
    /// RFC 3339 date-time, as the server wrote it.
    public var createdAt: String
    /// The device's current bill (the one its bill screen shows).
    public var current: Bool
    /// The bill's label ("Table 4"), what a cashier finds it by; `nil` without one (and from a
    /// server from before labels).
    public var label: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, label, status, lineCount, subtotalMinor, discountMinor, taxMinor, totalMinor, currency, createdAt, current
    }
}

extension BillListEntry {
    /// Decodes a listed bill, also from a server from before the list showed `discountMinor` (a
    /// node not yet upgraded during a rollout): its discount is then what the other totals leave,
    /// `subtotalMinor + taxMinor − totalMinor` (0 for a bill without one).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        status = try container.decode(BillStatus.self, forKey: .status)
        lineCount = try container.decode(Int.self, forKey: .lineCount)
        subtotalMinor = try container.decode(Int64.self, forKey: .subtotalMinor)
        taxMinor = try container.decode(Int64.self, forKey: .taxMinor)
        totalMinor = try container.decode(Int64.self, forKey: .totalMinor)
        // Wrapping: exact for any bill a server can hold (its totals fit in 64 bits), and no trap
        // on a garbled answer.
        discountMinor = try container.decodeIfPresent(Int64.self, forKey: .discountMinor) ?? (subtotalMinor &+ taxMinor &- totalMinor)
        currency = try container.decode(String.self, forKey: .currency)
        createdAt = try container.decode(String.self, forKey: .createdAt)
        current = try container.decode(Bool.self, forKey: .current)
        label = try container.decodeIfPresent(String.self, forKey: .label)
    }
}

/// A payment of a bill.
public struct Payment: Codable, Sendable, Hashable, WireObjectWithKeys {
    public var id: String
    public var billId: String
    /// The number on the payment's receipt: 1 for the shop's first payment, then one more for
    /// each, without gaps.
    public var receiptNumber: Int64
    public var method: PaymentMethod
    /// What this payment paid of the bill: its total, or a part of it (split tender); the most
    /// its refunds may give back.
    public var amountMinor: Int64
    /// The customer's tip on top of the total; 0 for none.
    public var tipMinor: Int64
    /// What the customer was charged in all: `amountMinor + tipMinor`.
    public var chargedMinor: Int64
    /// What was handed over; for card, `chargedMinor`.
    public var tenderedMinor: Int64
    /// `tenderedMinor − amountMinor − tipMinor` for cash; 0 for card.
    public var changeMinor: Int64
    /// RFC 3339 date-time, as the server wrote it.
    public var createdAt: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, billId, receiptNumber, method, amountMinor, tipMinor, chargedMinor, tenderedMinor, changeMinor, createdAt
    }
}

extension Payment {
    /// Decodes a payment, also from a server from before tips (a node not yet upgraded during a
    /// rollout), which sends no `tipMinor` or `chargedMinor`: no tip, charged its amount.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        billId = try container.decode(String.self, forKey: .billId)
        receiptNumber = try container.decode(Int64.self, forKey: .receiptNumber)
        method = try container.decode(PaymentMethod.self, forKey: .method)
        amountMinor = try container.decode(Int64.self, forKey: .amountMinor)
        tipMinor = try container.decodeIfPresent(Int64.self, forKey: .tipMinor) ?? 0
        let (charge, overflow) = amountMinor.addingReportingOverflow(tipMinor)
        chargedMinor = try container.decodeIfPresent(Int64.self, forKey: .chargedMinor) ?? (overflow ? .max : charge)
        tenderedMinor = try container.decode(Int64.self, forKey: .tenderedMinor)
        changeMinor = try container.decode(Int64.self, forKey: .changeMinor)
        createdAt = try container.decode(String.self, forKey: .createdAt)
    }
}
