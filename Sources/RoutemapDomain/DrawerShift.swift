import Foundation

/// One device's cash drawer from the float it was opened with to the cash counted at its close:
/// a shift, at whose end the shop cashes up. Shifts are optional: a device pays, refunds and
/// sells with or without one; an open shift only counts the cash its device moves meanwhile
/// (``DrawerFigures``). A device has at most one open shift.
public struct DrawerShift: Sendable, Hashable, Identifiable {
    /// `shift_` followed by 22 random base62 characters.
    public let id: String
    /// The till whose drawer it is.
    public let deviceId: String
    public let openedAt: Date
    /// The cash put in the drawer to open it (0 or more).
    public let openingFloatMinor: Int64
    /// How it was closed; `nil` while it is open. A device opens and closes its own drawer only,
    /// so `deviceId` is also who opened and who closed it.
    public let closing: Closing?

    /// A shift's close: when, the cash counted, and the cash expected then.
    public struct Closing: Sendable, Hashable {
        public let closedAt: Date
        /// The cash counted in the drawer at close (0 or more).
        public let countedCashMinor: Int64
        /// What the drawer should have held at close (``ShiftReport/expectedCash(openingFloatMinor:figures:)``),
        /// fixed then, so the closed shift's report never changes.
        public let expectedCashMinor: Int64

        /// The count less the expected cash: above 0 the drawer was over, below 0 short. Throws
        /// ``InvariantViolation`` when it does not fit in 64 bits (stored numbers no close makes).
        public func varianceMinor() throws(InvariantViolation) -> Int64 {
            let (variance, overflow) = countedCashMinor.subtractingReportingOverflow(expectedCashMinor)
            guard !overflow else { throw InvariantViolation("a shift's variance does not fit in 64 bits") }
            return variance
        }

        public init(closedAt: Date, countedCashMinor: Int64, expectedCashMinor: Int64) {
            self.closedAt = closedAt
            self.countedCashMinor = countedCashMinor
            self.expectedCashMinor = expectedCashMinor
        }
    }

    public init(id: String, deviceId: String, openedAt: Date, openingFloatMinor: Int64, closing: Closing? = nil) {
        self.id = id
        self.deviceId = deviceId
        self.openedAt = openedAt
        self.openingFloatMinor = openingFloatMinor
        self.closing = closing
    }

    public var isOpen: Bool { closing == nil }

    /// The last instant the shift covers: its close, or, while open, none (the distant future).
    public var end: Date { closing?.closedAt ?? .distantFuture }

    /// Whether a cash movement made by `deviceId` at `date` counts against this shift: the
    /// shift's device made it between its opening and its close, both included (a payment
    /// committed in the close's millisecond was in the drawer that was counted).
    public func covers(deviceId: String?, at date: Date) -> Bool {
        deviceId == self.deviceId && date >= openedAt && date <= end
    }

    /// This shift closed at `date`, with `countedCashMinor` counted against `expectedCashMinor`.
    public func closed(at date: Date, countedCashMinor: Int64, expectedCashMinor: Int64) -> DrawerShift {
        DrawerShift(
            id: id, deviceId: deviceId, openedAt: openedAt, openingFloatMinor: openingFloatMinor,
            closing: Closing(closedAt: date, countedCashMinor: countedCashMinor, expectedCashMinor: expectedCashMinor))
    }
}

/// Where a page of shifts, listed newest first, continues: after the shift opened at
/// `openedAt` with id `id` (ids break ties within a millisecond, in byte order).
public struct ShiftCursor: Sendable, Hashable {
    public let openedAt: Date
    public let id: String

    /// The cursor just past `shift`.
    public init(after shift: DrawerShift) {
        openedAt = shift.openedAt
        id = shift.id
    }
}

/// One page of shifts, newest first.
public struct ShiftPage: Sendable, Hashable {
    public let shifts: [DrawerShift]
    /// The id of the last shift, to pass as the next page's cursor; `nil` on the last page.
    public let nextCursor: String?

    public init(shifts: [DrawerShift], nextCursor: String?) {
        self.shifts = shifts
        self.nextCursor = nextCursor
    }
}

/// Cash put into (``Kind/payIn``) or taken out of (``Kind/payOut``) an open shift's drawer for
/// something other than a sale: change brought from the bank, a delivery paid from the till.
public struct DrawerMovement: Sendable, Hashable, Identifiable {
    public enum Kind: String, Sendable, CaseIterable {
        case payIn = "pay_in"
        case payOut = "pay_out"
    }

    /// `mov_` followed by 22 random base62 characters.
    public let id: String
    public let shiftId: String
    public let kind: Kind
    /// At least 1.
    public let amountMinor: Int64
    /// Why, as the cashier gave it (``BillVoiding``'s rule for a reason).
    public let reason: String
    /// The device that made it: the shift's.
    public let deviceId: String
    public let createdAt: Date

    public init(id: String, shiftId: String, kind: Kind, amountMinor: Int64, reason: String, deviceId: String, createdAt: Date) {
        self.id = id
        self.shiftId = shiftId
        self.kind = kind
        self.amountMinor = amountMinor
        self.reason = reason
        self.deviceId = deviceId
        self.createdAt = createdAt
    }
}

/// What a store sums up for a shift (``POSStore/drawerFigures(of:)``): the cash its device moved
/// in and out of the drawer while the shift was open (``DrawerShift/covers(deviceId:at:)``),
/// each as how many and how much, and its card payments for information.
public struct DrawerFigures: Sendable, Hashable {
    /// The device's cash payments and what they left in the drawer: Σ of tendered less change,
    /// that is of the amounts and the cash tips.
    public var cashTaken: SalesReport.MethodTotals = .zero
    /// The device's card payments and what they charged (amounts and tips): not in the drawer.
    public var cardTaken: SalesReport.MethodTotals = .zero
    /// The cash refunds the device made (of any device's payments): out of its drawer.
    public var cashRefunded: SalesReport.MethodTotals = .zero
    /// The shift's pay-ins.
    public var payIns: SalesReport.MethodTotals = .zero
    /// The shift's pay-outs.
    public var payOuts: SalesReport.MethodTotals = .zero

    public init() {}

    /// The figures of `shift` from records: of `payments` and `refunds`, those the shift covers;
    /// of `movements`, the shift's. What the stores sum in SQL, for a store that holds records
    /// in memory. Throws ``InvariantViolation`` when a sum does not fit in 64 bits.
    public init(of shift: DrawerShift, payments: [Payment], refunds: [Refund], movements: [DrawerMovement]) throws(InvariantViolation) {
        for payment in payments where shift.covers(deviceId: payment.deviceId, at: payment.createdAt) {
            switch payment.method {
            case .cash: cashTaken = try cashTaken.adding(payment.tenderedMinor - payment.changeMinor)
            case .card: cardTaken = try cardTaken.adding(payment.chargedMinor)
            }
        }
        for refund in refunds where refund.method == .cash && shift.covers(deviceId: refund.deviceId, at: refund.createdAt) {
            cashRefunded = try cashRefunded.adding(refund.amountMinor)
        }
        for movement in movements where movement.shiftId == shift.id {
            switch movement.kind {
            case .payIn: payIns = try payIns.adding(movement.amountMinor)
            case .payOut: payOuts = try payOuts.adding(movement.amountMinor)
            }
        }
    }

    /// How many payments the device took in the shift, cash and card.
    public var paymentCount: Int { cashTaken.count + cardTaken.count }
}

extension SalesReport.MethodTotals {
    /// One more, of `amountMinor`. Throws ``InvariantViolation`` past 64 bits.
    func adding(_ amountMinor: Int64) throws(InvariantViolation) -> Self {
        Self(count: count + 1, amountMinor: try SalesReport.sum(self.amountMinor, amountMinor, "a shift's cash"))
    }
}

/// A shift and its cash-up: what its drawer should hold (``expectedCashMinor``) and, once it is
/// closed, how far the count is from it (``varianceMinor``).
public struct ShiftReport: Sendable, Hashable {
    public let shift: DrawerShift
    public let figures: DrawerFigures
    /// The float, plus the cash taken, less the cash refunded, plus the pay-ins, less the
    /// pay-outs; for a closed shift, as fixed at its close. May be below 0 (refunds or pay-outs
    /// beyond the cash taken).
    public let expectedCashMinor: Int64
    /// The count less ``expectedCashMinor`` once closed: above 0 the drawer is over, below 0
    /// short; `nil` while the shift is open.
    public let varianceMinor: Int64?

    /// The report of `shift` with the sums `figures`. Throws ``InvariantViolation`` when a sum
    /// does not fit in 64 bits.
    public init(shift: DrawerShift, figures: DrawerFigures) throws(InvariantViolation) {
        self.shift = shift
        self.figures = figures
        if let closing = shift.closing {
            expectedCashMinor = closing.expectedCashMinor
            varianceMinor = try closing.varianceMinor()
        } else {
            expectedCashMinor = try Self.expectedCash(openingFloatMinor: shift.openingFloatMinor, figures: figures)
            varianceMinor = nil
        }
    }

    /// `openingFloatMinor + cashTaken − cashRefunded + payIns − payOuts`. Throws
    /// ``InvariantViolation`` when it does not fit in 64 bits.
    public static func expectedCash(openingFloatMinor: Int64, figures: DrawerFigures) throws(InvariantViolation) -> Int64 {
        let gained = try SalesReport.sum(
            try SalesReport.sum(openingFloatMinor, figures.cashTaken.amountMinor, "a shift's cash"), figures.payIns.amountMinor, "a shift's cash")
        let lost = try SalesReport.sum(figures.cashRefunded.amountMinor, figures.payOuts.amountMinor, "a shift's cash")
        let (expected, overflow) = gained.subtractingReportingOverflow(lost)
        guard !overflow else { throw InvariantViolation("a shift's expected cash does not fit in 64 bits") }
        return expected
    }
}

/// What ``Till/recordDrawerMovement(kind:amountMinor:reason:device:idempotency:)`` did: the
/// movement, and its shift's report with it.
public struct DrawerMovementOutcome: Sendable, Hashable {
    public let movement: DrawerMovement
    public let report: ShiftReport

    public init(movement: DrawerMovement, report: ShiftReport) {
        self.movement = movement
        self.report = report
    }
}

/// A device's cash drawer as its screen shows it (``BillReader/drawerState()``): the open shift,
/// or with none open, the last closed one (so the cashier sees the cash-up after closing).
public enum DrawerState: Sendable, Hashable {
    case open(ShiftReport)
    /// No shift open; `last` is the most recently closed one, `nil` before the first.
    case closed(last: ShiftReport?)
}
