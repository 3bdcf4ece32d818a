import Foundation

/// A customer's order: its lines in the order they were added, its money, and where it is in
/// the open → checked out → paid life cycle.
///
/// Change a bill only through its mutating methods: they enforce the rules (throwing
/// ``POSError``), keep the totals in step with the lines and add 1 to ``version``. The totals
/// always fit in `Int64`; a change that would overflow them is refused.
public struct Bill: Sendable, Hashable, Identifiable {
    /// `bill_` followed by 22 random base62 characters.
    public let id: String
    public private(set) var status: BillStatus
    /// In the order added; adding the same menu item again raises its line's quantity.
    public private(set) var lines: [BillLine]
    public let currency: Currency
    /// The rate the bill was opened with, kept for its whole life.
    public let taxRate: TaxRate
    /// 1 on creation, +1 on every change: for optimistic concurrency and entity tags.
    public private(set) var version: Int
    public let createdAt: Date
    /// When the bill last became its device's current bill: created, or resumed. The current
    /// bill is the unsettled one selected last.
    public private(set) var selectedAt: Date
    /// Why and when the bill was voided; `nil` unless it is `voided`.
    public private(set) var voiding: BillVoiding?
    /// The device the bill belongs to: the one that opened it, or the one a manager transferred
    /// it to (``transfer(to:)``). Only it may change the bill; a manager may also
    /// read, void and transfer it. `nil` for bills from before devices existed, which no device owns.
    public private(set) var deviceId: String?
    /// The bill's discount, if it has one (at most one; set and removed while the bill is open).
    public private(set) var discount: BillDiscount?
    /// The bill's payments, oldest first: none until it is paid, or the earlier parts of a split
    /// tender while it is checked out (``Bill+SplitPayment.swift``).
    public private(set) var payments: [Payment]
    /// The name a cashier gave the bill ("Table 4"), if any: set and cleared while the bill is
    /// open or checked out (``setLabel(_:)``). Not unique.
    public private(set) var billLabel: BillLabel?
    /// ``billLabel``'s text.
    public var label: String? { billLabel?.text }
    private var totals: BillTotals

    /// A bill as it is (new or loaded from storage). Throws if `version` is below 1, the
    /// lines' amounts overflow `Int64`, or `label` is not one ``BillLabel`` would keep (empty,
    /// untrimmed, too long).
    public init(
        id: String, status: BillStatus = .open, lines: [BillLine] = [], currency: Currency, taxRate: TaxRate,
        version: Int = 1, createdAt: Date, selectedAt: Date? = nil, voiding: BillVoiding? = nil, deviceId: String? = nil,
        discount: BillDiscount? = nil, payments: [Payment] = [], label: String? = nil
    ) throws(InvariantViolation) {
        guard version >= 1 else { throw InvariantViolation("bill \(id): version \(version) is below 1") }
        let billLabel = label.flatMap { BillLabel(stored: $0) }
        guard (label == nil) == (billLabel == nil) else {
            throw InvariantViolation("bill \(id): its label is not a label (empty, untrimmed, over \(BillLabel.maxCharacters) characters or with U+0000)")
        }
        guard (status == .voided) == (voiding != nil) else {
            throw InvariantViolation("bill \(id): a \(status.rawValue) bill \(voiding == nil ? "without" : "with") a void record")
        }
        guard let totals = BillTotals(lines: lines, taxRate: taxRate, discount: discount) else {
            throw InvariantViolation("bill \(id): its amounts do not fit in 64 bits")
        }
        self.id = id
        self.status = status
        self.lines = lines
        self.currency = currency
        self.taxRate = taxRate
        self.version = version
        self.createdAt = createdAt
        self.selectedAt = selectedAt ?? createdAt
        self.voiding = voiding
        self.deviceId = deviceId
        self.discount = discount
        self.totals = totals
        self.payments = payments
        self.billLabel = billLabel
        try Self.checkPayments(payments, of: self)
    }

    /// Σ of the lines' totals, before the discount.
    public var subtotalMinor: Int64 { totals.subtotalMinor }
    /// What the discount takes off the subtotal (``BillDiscount/minor(off:)``): 0 without one,
    /// never more than ``subtotalMinor``.
    public var discountMinor: Int64 { totals.discountMinor }
    /// `subtotalMinor - discountMinor`: what the tax is on.
    public var discountedSubtotalMinor: Int64 { totals.subtotalMinor - totals.discountMinor }
    /// Without a discount, Σ of each line's tax (computed per line, rounded half to even, then
    /// summed); with one, the tax on ``discountedSubtotalMinor``, rounded half to even.
    public var taxMinor: Int64 { totals.taxMinor }
    /// `discountedSubtotalMinor + taxMinor`, exactly.
    public var totalMinor: Int64 { totals.totalMinor }

    /// The line with `lineId`, if any.
    public func line(id lineId: String) -> BillLine? {
        lines.first { $0.lineId == lineId }
    }

    /// Replaces the lines and their totals after a change, and counts the change. Throws
    /// `amountOutOfRange(quantity)` if the new amounts would overflow.
    mutating func replaceLines(_ newLines: [BillLine], blamingQuantity quantity: Int) throws(POSError) {
        guard let newTotals = BillTotals(lines: newLines, taxRate: taxRate, discount: discount) else {
            throw .amountOutOfRange(quantity: quantity)
        }
        lines = newLines
        totals = newTotals
        version += 1
    }

    /// Replaces the discount (`nil`: none) and the totals it makes, and counts the change.
    /// Throws only for lines within a few minor units of `Int64.max`, where the tax rounded once
    /// on the discounted subtotal can pass the per-line sum it replaces.
    mutating func replaceDiscount(_ newDiscount: BillDiscount?) throws(InvariantViolation) {
        guard let newTotals = BillTotals(lines: lines, taxRate: taxRate, discount: newDiscount) else {
            throw InvariantViolation("bill \(id): its amounts do not fit in 64 bits with its discount")
        }
        discount = newDiscount
        totals = newTotals
        version += 1
    }

    /// Moves to `newStatus` and counts the change.
    mutating func move(to newStatus: BillStatus) {
        status = newStatus
        version += 1
    }

    /// Records that the bill became its device's current one at `date`, and counts the change.
    mutating func select(at date: Date) {
        selectedAt = date
        version += 1
    }

    /// Gives the bill to device `device`, selected at `date`, and counts the change.
    mutating func reassign(to device: String, selectedAt date: Date) {
        deviceId = device
        selectedAt = date
        version += 1
    }

    /// Adds `payment` to the payments, becoming `newStatus`, and counts the change.
    mutating func append(_ payment: Payment, becoming newStatus: BillStatus) {
        payments.append(payment)
        move(to: newStatus)
    }

    /// Replaces the label (`nil`: none), and counts the change.
    mutating func replaceLabel(_ newLabel: BillLabel?) {
        billLabel = newLabel
        version += 1
    }

    /// Voids the bill with `voiding`, and counts the change.
    mutating func record(_ voiding: BillVoiding) {
        self.voiding = voiding
        move(to: .voided)
    }
}
