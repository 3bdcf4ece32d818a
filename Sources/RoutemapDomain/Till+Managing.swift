import Foundation

/// A manager's hold on every device's unsettled bills: when a till is lost (and revoked), its
/// open and checked-out bills can still be read, listed, voided (``void(billId:caller:reason:idempotency:)``)
/// or given to another device, whose cashier then resumes, checks out, pays or voids them as
/// their own.
extension Till {
    /// The bill with `id`, if `caller` reaches it (its own bill; any bill for a manager).
    /// Throws `billNotFound` otherwise: for a till, another device's bill is indistinguishable
    /// from a missing one.
    public func bill(id: String, caller: BillCaller) throws -> Bill {
        guard let bill = try store.bill(id: id), caller.reaches(bill) else { throw POSError.billNotFound(id) }
        return bill
    }

    /// The payment with `id`, if `caller` reaches the bill it paid (a manager reaches every
    /// bill). Throws `paymentNotFound` otherwise: for a till, another device's payment is
    /// indistinguishable from a missing one. A read that fails is the store's error.
    public func payment(id: String, caller: BillCaller) throws -> Payment {
        guard let payment = try store.payment(id: id), let bill = try store.bill(id: payment.billId), caller.reaches(bill) else {
            throw POSError.paymentNotFound(id)
        }
        return payment
    }

    /// A page of device `deviceId`'s unsettled bills, as ``bills(device:statuses:after:limit:)``
    /// lists a device's own: for a manager, of any enrolled device, revoked ones included.
    /// Throws `managerOnly` when a till asks for another device's, `DeviceError.deviceNotFound`
    /// when no device has that id, or `invalidCursor`.
    public func bills(
        ofDevice deviceId: String, caller: BillCaller, statuses: Set<BillStatus>, after cursor: String?, limit: Int
    ) throws -> BillPage {
        guard caller.role == .manager || caller.deviceId == deviceId else { throw POSError.managerOnly }
        // A shop has tens of devices: the listing is as cheap as a lookup by id.
        guard try store.devices().contains(where: { $0.id == deviceId }) else { throw DeviceError.deviceNotFound(deviceId) }
        // The cursor is a position (creation, id), whoever has its bill now: a manager pages on
        // through a lost till's bills while transferring them.
        return try reader(for: deviceId).bills(statuses: statuses, after: cursor, limit: limit) { try bill(id: $0, caller: caller) }
    }

    /// Gives an open or checked-out bill to device `target`, for a manager: from then on it is
    /// the target's (its list, its changes, paying it) and its old device no longer sees it.
    /// The bill does not become the target's current bill: it comes after every bill the target
    /// selected (see ``Bill/transfer(to:)``), and when the target has no unsettled bill a new
    /// empty one is opened for it first, as its next launch would (unless the bill given is an
    /// empty open one: it serves as that bill). The old
    /// device gets no new bill (its next launch opens one if it needs it). Transferring to the
    /// device that has the bill changes nothing.
    ///
    /// One transaction: it serializes with any change of the same bill (by its old device, or a
    /// second transfer), and with revoking the target. Throws `managerOnly` for a till,
    /// `billNotFound`, `billSettled` (recorded under the key, as other changes' conflicts are),
    /// or `deviceNotActive` when `target` is not an enrolled device or is revoked.
    public func transfer(billId: String, to target: String, caller: BillCaller, idempotency: IdempotencyKey<Bill>?) async throws
        -> IdempotentOutcome<Bill>
    {
        guard caller.role == .manager else { throw POSError.managerOnly }
        return try await write(device: caller.deviceId, durability: .normal, idempotency: idempotency) { transaction in
            let bill = try reachableBill(billId, caller: caller, in: transaction)
            try bill.requireUnsettled()
            guard let device = try transaction.device(id: target), device.revokedAt == nil else { throw POSError.deviceNotActive(target) }
            if bill.deviceId == target { return bill }
            // A target with no unsettled bill gets a new current one, unless the bill given is
            // itself empty and open: then it is the bill a new one would be.
            if !(bill.status == .open && bill.lines.isEmpty), try transaction.currentBill(deviceId: target) == nil {
                try transaction.insert(try makeBill(device: target))
            }
            return try change(bill, in: transaction) { bill, _ in try bill.transfer(to: target) }
        }
    }

    /// The bill, if `caller` reaches it (see ``BillCaller/reaches(_:)``); `billNotFound` otherwise.
    func reachableBill(_ billId: String, caller: BillCaller, in transaction: any POSTransaction) throws -> Bill {
        guard let bill = try transaction.bill(id: billId), caller.reaches(bill) else { throw POSError.billNotFound(billId) }
        return bill
    }
}
