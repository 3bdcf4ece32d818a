import Foundation
import RoutemapDomain

/// The transaction of ``InMemoryStore``: changes a private copy of the state, refusing what
/// the database's constraints refuse (a second bill or payment with one id, a receipt number
/// given twice, a stale update, a device or token digest enrolled twice) with ``Conflict``.
final class InMemoryTransaction: POSTransaction {
    /// What the database would refuse as a constraint violation.
    struct Conflict: Error {}

    var state: InMemoryStore.State

    init(state: InMemoryStore.State) {
        self.state = state
    }

    func menuItem(id: String) throws -> MenuItem? {
        state.retiredMenuItems.contains(id) ? nil : state.menu.first { $0.id == id }
    }

    func bill(id: String) throws -> Bill? { state.bills[id] }

    func currentBill(deviceId: String) throws -> Bill? { state.currentBill(deviceId: deviceId) }

    /// As the current bill is chosen: selected last, the later created on a tie.
    func emptyOpenBill(deviceId: String) throws -> Bill? {
        state.billOrder.reversed().compactMap { state.bills[$0] }
            .filter { $0.deviceId == deviceId && $0.status == .open && $0.lines.isEmpty }
            .max { $0.selectedAt < $1.selectedAt }
    }

    func insert(_ bill: Bill) throws {
        guard state.bills[bill.id] == nil else { throw Conflict() }
        state.bills[bill.id] = bill
        state.billOrder.append(bill.id)
    }

    func update(_ bill: Bill) throws {
        guard let stored = state.bills[bill.id], stored.version < bill.version else { throw Conflict() }
        state.bills[bill.id] = bill
    }

    /// Refuses a payment with a receipt number already given (the database's UNIQUE), or one
    /// that takes its bill's payments beyond the bill's total (migration 0022's trigger).
    func insert(_ payment: Payment) throws {
        guard !state.payments.contains(where: { $0.receiptNumber == payment.receiptNumber }),
            let bill = state.bills[payment.billId],
            state.payments.filter({ $0.billId == payment.billId }).reduce(payment.amountMinor, { $0 + $1.amountMinor }) <= bill.totalMinor
        else {
            throw Conflict()
        }
        state.payments.append(payment)
    }

    /// One more than the highest recorded (this copy of the state is the one writer's).
    func nextReceiptNumber() throws -> Int64 {
        (state.payments.map(\.receiptNumber).max() ?? 0) + 1
    }

    /// Refuses what the refunds table's constraints refuse: a second refund with one id, an
    /// amount below 1, a payment that does not exist.
    func insert(_ refund: Refund) throws {
        guard !state.refunds.contains(where: { $0.id == refund.id }), refund.amountMinor > 0,
            state.payments.contains(where: { $0.id == refund.paymentId })
        else { throw Conflict() }
        state.refunds.append(refund)
    }

    func refunds(billId: String) throws -> [Refund] { state.refunds(billId: billId) }

    func openShift(deviceId: String) throws -> DrawerShift? { state.openShift(deviceId: deviceId) }

    /// Refuses what the shifts table refuses: a second shift with one id, a second open shift
    /// of one device (the partial unique index), a float below 0.
    func insert(_ shift: DrawerShift) throws {
        guard !state.shifts.contains(where: { $0.id == shift.id }), state.openShift(deviceId: shift.deviceId) == nil,
            shift.isOpen, shift.openingFloatMinor >= 0
        else { throw Conflict() }
        state.shifts.append(shift)
    }

    /// Only over an open shift.
    func close(_ shift: DrawerShift) throws {
        guard let index = state.shifts.firstIndex(where: { $0.id == shift.id && $0.isOpen }), !shift.isOpen else { throw Conflict() }
        state.shifts[index] = shift
    }

    /// Refuses what the movements table refuses: a second movement with one id, an amount
    /// below 1, a shift that does not exist.
    func insert(_ movement: DrawerMovement) throws {
        guard !state.drawerMovements.contains(where: { $0.id == movement.id }), movement.amountMinor > 0,
            state.shifts.contains(where: { $0.id == movement.shiftId })
        else { throw Conflict() }
        state.drawerMovements.append(movement)
    }

    func drawerFigures(of shift: DrawerShift) throws -> DrawerFigures { try state.drawerFigures(of: shift) }

    func insert(_ device: Device, tokenDigest: [UInt8]) throws {
        guard !state.devices.contains(where: { $0.device.id == device.id || $0.tokenDigest == tokenDigest }) else {
            throw Conflict()
        }
        state.devices.append((device, tokenDigest))
    }

    func recordedAnswer(deviceId: String, key: String) throws -> RecordedAnswer? {
        state.recordedAnswers[InMemoryStore.RecordedKey(deviceId: deviceId, key: key)]
    }

    func record(_ answer: RecordedAnswer) throws {
        state.recordedAnswers[InMemoryStore.RecordedKey(deviceId: answer.deviceId, key: answer.key)] = answer
    }

    func deleteRecordedAnswers(before date: Date) throws {
        state.recordedAnswers = state.recordedAnswers.filter { $0.value.createdAt >= date }
    }
}

extension InMemoryTransaction {
    func device(id: String) throws -> Device? { state.devices.first { $0.device.id == id }?.device }

    func revokeDevice(id: String, at date: Date) throws {
        guard let index = state.devices.firstIndex(where: { $0.device.id == id }) else { throw Conflict() }
        state.devices[index].device = state.devices[index].device.revoked(at: date)
        state.deviceRevision += 1
    }

    func setNextToken(deviceId: String, tokenDigest: [UInt8]) throws {
        guard state.devices.contains(where: { $0.device.id == deviceId }),
            !state.devices.contains(where: { $0.tokenDigest == tokenDigest })
        else { throw Conflict() }
        state.nextTokenDigests[deviceId] = tokenDigest
    }

    func promoteNextToken(deviceId: String, tokenDigest: [UInt8]) throws {
        guard state.nextTokenDigests[deviceId] == tokenDigest,
            let index = state.devices.firstIndex(where: { $0.device.id == deviceId })
        else { return }
        state.devices[index].tokenDigest = tokenDigest
        state.nextTokenDigests[deviceId] = nil
        state.deviceRevision += 1
    }
}

extension InMemoryTransaction {
    func menuItemExists(id: String) throws -> Bool { state.menu.contains { $0.id == id } }

    func insertMenuItem(_ item: MenuItem) throws {
        guard !state.menu.contains(where: { $0.id == item.id }) else { throw Conflict() }
        state.menu.append(item)
        state.menuRevision += 1
    }

    func updateMenuItem(_ item: MenuItem) throws {
        guard let index = state.menu.firstIndex(where: { $0.id == item.id }) else { throw Conflict() }
        // The item's own fields only, as the stores' updates: its groups stay.
        state.menu[index] = item.withModifierGroups(state.menu[index].modifierGroups)
        state.menuRevision += 1
    }

    func takeFromStock(_ sold: [String: Int]) throws {
        state.stockStatements += 1
        for (index, item) in state.menu.enumerated() {
            guard let quantity = sold[item.id], let stock = item.stock else { continue }
            state.menu[index] = MenuItem(
                id: item.id, name: item.name, category: item.category, priceMinor: item.priceMinor, currency: item.currency,
                available: item.available, modifierGroups: item.modifierGroups, stock: stock - quantity)
        }
        state.menuRevision += 1
    }

    func replaceModifierGroups(menuItemId: String, with groups: [ModifierGroup]) throws {
        guard let index = state.menu.firstIndex(where: { $0.id == menuItemId }) else { throw Conflict() }
        let item = state.menu[index]
        state.menu[index] = item.withModifierGroups(groups)
        state.menuRevision += 1
    }

    func retireMenuItem(id: String, at date: Date) throws {
        state.retiredMenuItems.insert(id)
        state.menuRevision += 1
    }
}

extension InMemoryTransaction {
    func menuCategory(id: String) throws -> MenuCategory? {
        state.retiredCategories.contains(id) ? nil : state.categories.first { $0.id == id }
    }

    func menuCategoryExists(id: String) throws -> Bool { state.categories.contains { $0.id == id } }

    func insertMenuCategory(_ category: MenuCategory) throws {
        guard !state.categories.contains(where: { $0.id == category.id }) else { throw Conflict() }
        state.categories.append(category)
        state.menuRevision += 1
    }

    func updateMenuCategory(_ category: MenuCategory) throws {
        guard let index = state.categories.firstIndex(where: { $0.id == category.id }) else { throw Conflict() }
        state.categories[index] = category
        state.menuRevision += 1
    }

    func retireMenuCategory(id: String, at date: Date) throws {
        state.retiredCategories.insert(id)
        state.menuRevision += 1
    }

    func menuItemCount(category id: String) throws -> Int {
        state.menu.filter { $0.category == id && !state.retiredMenuItems.contains($0.id) }.count
    }
}
