import Foundation

/// Cash drawer shifts (cash-up): a device opens a shift with its float, records cash paid in and
/// out of its drawer, and closes the shift with the cash it counted; the report says whether the
/// drawer is over or short. Any device (till or manager) does this for its own drawer only.
///
/// Optional: paying and refunding need no open shift. A shift counts the cash its device moved
/// while it was open (``DrawerShift/covers(deviceId:at:)``), found by the device and the time,
/// so paying does nothing for shifts but record its device.
///
/// Each change is one transaction committed with `full` durability (it is money, as paying is)
/// that reads the device's open shift first: on PostgreSQL that read takes an advisory lock on
/// the device, so a device's shift changes run one after the other on every node.
extension Till {
    /// Opens a shift on `device` with `openingFloatMinor` in its drawer (0 or more, else
    /// ``InvalidInput``). Throws `shiftAlreadyOpen` with the open shift's id, a state conflict
    /// recorded under the key.
    public func openShift(device: String, openingFloatMinor: Int64, idempotency: IdempotencyKey<ShiftReport>?) async throws
        -> IdempotentOutcome<ShiftReport>
    {
        guard openingFloatMinor >= 0 else { throw InvalidInput(field: "openingFloatMinor", rule: "at least 0") }
        return try await write(device: device, durability: .full, idempotency: idempotency) { transaction in
            if let open = try transaction.openShift(deviceId: device) { throw POSError.shiftAlreadyOpen(shiftId: open.id) }
            let shift = DrawerShift(
                id: Identifier.make(prefix: "shift_"), deviceId: device, openedAt: timestamp(), openingFloatMinor: openingFloatMinor)
            try transaction.insert(shift)
            return try ShiftReport(shift: shift, figures: DrawerFigures())
        }
    }

    /// The open shift of `device` with what its drawer should hold now (its sums read in one
    /// snapshot, after the shift). Throws `noOpenShift`.
    public func currentShift(device: String) throws -> ShiftReport {
        guard let shift = try store.openShift(deviceId: device) else { throw POSError.noOpenShift }
        return try ShiftReport(shift: shift, figures: try store.drawerFigures(of: shift))
    }

    /// Records `amountMinor` (at least 1) of cash paid into or out of the drawer of `device`'s
    /// open shift, with `reason` (``BillVoiding``'s rule); both refused as ``InvalidInput``
    /// before anything is read. Throws `noOpenShift`, and for a pay-out of more than the drawer
    /// should hold, `insufficientCash` with what it should hold: state conflicts, recorded.
    public func recordDrawerMovement(
        kind: DrawerMovement.Kind, amountMinor: Int64, reason: String, device: String, idempotency: IdempotencyKey<DrawerMovementOutcome>?
    ) async throws -> IdempotentOutcome<DrawerMovementOutcome> {
        try BillVoiding.checkedReason(reason)
        guard amountMinor >= 1 else { throw InvalidInput(field: "amountMinor", rule: "at least 1") }
        return try await write(device: device, durability: .full, idempotency: idempotency) { transaction in
            let (shift, before) = try openShiftReport(device: device, in: transaction)
            if kind == .payOut, amountMinor > before.expectedCashMinor {
                throw POSError.insufficientCash(expectedCashMinor: before.expectedCashMinor)
            }
            let movement = DrawerMovement(
                id: Identifier.make(prefix: "mov_"), shiftId: shift.id, kind: kind, amountMinor: amountMinor, reason: reason, deviceId: device,
                createdAt: timestamp())
            try transaction.insert(movement)
            var figures = before.figures
            switch kind {
            case .payIn: figures.payIns = try figures.payIns.adding(amountMinor)
            case .payOut: figures.payOuts = try figures.payOuts.adding(amountMinor)
            }
            return DrawerMovementOutcome(movement: movement, report: try ShiftReport(shift: shift, figures: figures))
        }
    }

    /// Closes the open shift of `device` with `countedCashMinor` counted in its drawer (0 or
    /// more, else ``InvalidInput``), fixing what it should have held: the closed shift's report.
    /// Throws `noOpenShift`, a state conflict recorded under the key.
    public func closeShift(device: String, countedCashMinor: Int64, idempotency: IdempotencyKey<ShiftReport>?) async throws
        -> IdempotentOutcome<ShiftReport>
    {
        guard countedCashMinor >= 0 else { throw InvalidInput(field: "countedCashMinor", rule: "at least 0") }
        return try await write(device: device, durability: .full, idempotency: idempotency) { transaction in
            let (shift, open) = try openShiftReport(device: device, in: transaction)
            let closed = shift.closed(at: timestamp(), countedCashMinor: countedCashMinor, expectedCashMinor: open.expectedCashMinor)
            try transaction.close(closed)
            return try ShiftReport(shift: closed, figures: open.figures)
        }
    }

    /// The report of shift `id`: a till's own shifts only (another's reads as missing, as a bill
    /// does), any device's for a manager. Throws `shiftNotFound`.
    public func shiftReport(id: String, caller: BillCaller) throws -> ShiftReport {
        guard let shift = try store.shift(id: id), caller.role == .manager || shift.deviceId == caller.deviceId else {
            throw POSError.shiftNotFound(id)
        }
        return try ShiftReport(shift: shift, figures: try store.drawerFigures(of: shift))
    }

    /// A page of shifts, newest first, for a manager (`managerOnly` for a till): of device
    /// `deviceId`, or of every device when `nil`, after the shift `cursor` names (the previous
    /// page's `nextCursor`; `invalidCursor` when it names no shift of the list).
    public func shifts(deviceId: String?, after cursor: String?, limit: Int, caller: BillCaller) throws -> ShiftPage {
        guard caller.role == .manager else { throw POSError.managerOnly }
        guard (1...Self.maxPageSize).contains(limit) else {
            throw InvariantViolation("Shifts are listed 1 to \(Self.maxPageSize) a page, not \(limit).")
        }
        var after: ShiftCursor?
        if let cursor {
            guard let shift = try store.shift(id: cursor), deviceId == nil || shift.deviceId == deviceId else {
                throw POSError.invalidCursor(cursor)
            }
            after = ShiftCursor(after: shift)
        }
        // One more than asked: whether there is a next page.
        let shifts = try store.shifts(deviceId: deviceId, after: after, limit: limit + 1)
        let page = Array(shifts.prefix(limit))
        return ShiftPage(shifts: page, nextCursor: shifts.count > limit ? page.last?.id : nil)
    }

    /// The open shift of `device` and its report, read in `transaction`. Throws `noOpenShift`.
    private func openShiftReport(device: String, in transaction: any POSTransaction) throws -> (DrawerShift, ShiftReport) {
        guard let shift = try transaction.openShift(deviceId: device) else { throw POSError.noOpenShift }
        return (shift, try ShiftReport(shift: shift, figures: try transaction.drawerFigures(of: shift)))
    }
}

extension BillReader {
    /// What the drawer screen shows for the device: its open shift's report, or when it has
    /// none, its most recently closed shift's (``DrawerState/closed(last:)``, `nil` before its
    /// first). The newest shift is the most recently closed one when none is open: a device opens
    /// a shift only once its previous one is closed.
    public func drawerState() throws -> DrawerState {
        if let open = try store.openShift(deviceId: device) {
            return .open(try ShiftReport(shift: open, figures: try store.drawerFigures(of: open)))
        }
        guard let newest = try store.shifts(deviceId: device, after: nil, limit: 1).first else { return .closed(last: nil) }
        let report = try ShiftReport(shift: newest, figures: try store.drawerFigures(of: newest))
        // Opened between the two reads: it is the open one.
        return newest.isOpen ? .open(report) : .closed(last: report)
    }
}
