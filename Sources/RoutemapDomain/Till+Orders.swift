import Foundation

/// A till's several open orders: list them, make one the current bill (resume), void one.
extension Till {
    /// The most bills one page lists.
    public static let maxPageSize = 100

    /// A page of `device`'s bills whose status is in `statuses` (open and checked out only),
    /// newest first, after the bill `cursor` names (the previous page's `nextCursor`). Throws
    /// `invalidCursor` when `cursor` is not one of the device's bills.
    public func bills(device: String, statuses: Set<BillStatus>, after cursor: String?, limit: Int) throws -> BillPage {
        try reader(for: device).bills(statuses: statuses, after: cursor, limit: limit)
    }

    /// Makes an open or checked-out bill the device's current one: launch, and every walk that
    /// derives the bill, show it from now on. Throws `billNotFound` or `billSettled`.
    public func resume(billId: String, device: String, idempotency: IdempotencyKey<Bill>?) async throws -> IdempotentOutcome<Bill> {
        try await changeBill(billId, device: device, idempotency: idempotency) { [self] bill, _ in try bill.resume(at: timestamp()) }
    }

    /// Voids an open or checked-out bill with `reason`. When it was the current bill, the
    /// device's current bill becomes the unsettled bill selected last before it, or a new bill
    /// when none is left (so launch always finds one). Throws ``InvalidInput`` for a reason that
    /// breaks ``BillVoiding``'s rule, `billNotFound` or `billSettled`.
    public func void(billId: String, device: String, reason: String, idempotency: IdempotencyKey<VoidOutcome>?) async throws
        -> IdempotentOutcome<VoidOutcome>
    {
        try await void(billId: billId, caller: .till(device), reason: reason, idempotency: idempotency)
    }

    /// ``void(billId:device:reason:idempotency:)`` by `caller`: a till voids its own bills, a
    /// manager any device's. The outcome's next bill is the caller's current bill afterwards
    /// (created if it has none, as for a till): what the caller's bill screen shows next. When
    /// the bill was another device's, that device gets no new bill, even if this was its last
    /// unsettled one: its own next launch opens one (it may be revoked and never launch again).
    public func void(billId: String, caller: BillCaller, reason: String, idempotency: IdempotencyKey<VoidOutcome>?) async throws
        -> IdempotentOutcome<VoidOutcome>
    {
        try BillVoiding.checkedReason(reason)
        let device = caller.deviceId
        return try await write(device: device, durability: .normal, idempotency: idempotency) { transaction in
            let bill = try reachableBill(billId, caller: caller, in: transaction)
            let date = timestamp()
            let voided = try change(bill, in: transaction) { bill, _ in try bill.void(reason: reason, at: date) }
            if let current = try transaction.currentBill(deviceId: device) {
                return VoidOutcome(bill: voided, previousStatus: bill.status, nextBill: current)
            }
            let next = try makeBill(device: device)
            try transaction.insert(next)
            return VoidOutcome(bill: voided, previousStatus: bill.status, nextBill: next)
        }
    }

    /// The payment with `id`, if it paid one of `device`'s bills; `paymentNotFound` otherwise
    /// (``payment(id:caller:)`` for a till).
    public func payment(id: String, device: String) throws -> Payment {
        try payment(id: id, caller: .till(device))
    }
}

extension BillReader {
    /// See ``Till/bills(device:statuses:after:limit:)``.
    public func bills(statuses: Set<BillStatus>, after cursor: String?, limit: Int) throws -> BillPage {
        // Only a bill the device does not have makes a bad cursor; a read that fails is the
        // store's error, and the client keeps its cursor.
        try bills(statuses: statuses, after: cursor, limit: limit) { try bill(id: $0) }
    }

    /// ``bills(statuses:after:limit:)`` with the cursor's bill found by `cursorBill`, which
    /// throws `billNotFound` for an id that is no cursor.
    func bills(statuses: Set<BillStatus>, after cursor: String?, limit: Int, cursorBill: (String) throws -> Bill) throws -> BillPage {
        guard (1...Till.maxPageSize).contains(limit), statuses.allSatisfy(\.isUnsettled) else {
            throw InvariantViolation("Unsettled bills (open or checked out) are listed 1 to \(Till.maxPageSize) a page, not \(limit).")
        }
        var after: BillCursor?
        if let cursor {
            do { after = BillCursor(after: try cursorBill(cursor)) } catch POSError.billNotFound { throw POSError.invalidCursor(cursor) }
        }
        // One more than asked: whether there is a next page.
        let bills = try store.unsettledBills(deviceId: device, statuses: statuses, after: after, limit: limit + 1)
        let page = Array(bills.prefix(limit))
        return BillPage(bills: page, nextCursor: bills.count > limit ? page.last?.id : nil)
    }
}
