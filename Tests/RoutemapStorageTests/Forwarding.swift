import Foundation
import RoutemapDomain

/// A store that wraps another and passes every read through to it: a test double implements
/// `write` and whatever it intercepts, and nothing else.
protocol ForwardingStore: POSStore {
    var forwarded: any POSStore { get }
}

extension ForwardingStore {
    func menuItems() throws -> [MenuItem] { try forwarded.menuItems() }
    func menuCategories() throws -> [MenuCategory] { try forwarded.menuCategories() }
    func menuRevision() throws -> Int { try forwarded.menuRevision() }
    func bill(id: String) throws -> Bill? { try forwarded.bill(id: id) }
    func currentBill(deviceId: String) throws -> Bill? { try forwarded.currentBill(deviceId: deviceId) }
    func unsettledBills(deviceId: String, statuses: Set<BillStatus>, after cursor: BillCursor?, limit: Int) throws -> [Bill] {
        try forwarded.unsettledBills(deviceId: deviceId, statuses: statuses, after: cursor, limit: limit)
    }
    func payment(id: String) throws -> Payment? { try forwarded.payment(id: id) }
    func refunds(billId: String) throws -> [Refund] { try forwarded.refunds(billId: billId) }
    func salesFigures(in period: SalesPeriod) throws -> SalesFigures { try forwarded.salesFigures(in: period) }
    func shift(id: String) throws -> DrawerShift? { try forwarded.shift(id: id) }
    func openShift(deviceId: String) throws -> DrawerShift? { try forwarded.openShift(deviceId: deviceId) }
    func drawerFigures(of shift: DrawerShift) throws -> DrawerFigures { try forwarded.drawerFigures(of: shift) }
    func shifts(deviceId: String?, after cursor: ShiftCursor?, limit: Int) throws -> [DrawerShift] {
        try forwarded.shifts(deviceId: deviceId, after: cursor, limit: limit)
    }
    func device(tokenDigest: [UInt8]) throws -> Device? { try forwarded.device(tokenDigest: tokenDigest) }
    func devices() throws -> [Device] { try forwarded.devices() }
    func device(nextTokenDigest: [UInt8]) throws -> Device? { try forwarded.device(nextTokenDigest: nextTokenDigest) }
    func deviceRevision() throws -> Int { try forwarded.deviceRevision() }
    func ping() throws { try forwarded.ping() }
    var readsAreImmediate: Bool { forwarded.readsAreImmediate }
    func reading<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T { try await forwarded.reading(body) }
}

/// A transaction that wraps another and passes every call through to it: a test double
/// implements only the calls it intercepts.
protocol ForwardingTransaction: POSTransaction {
    var forwarded: any POSTransaction { get }
}

extension ForwardingTransaction {
    func menuItem(id: String) throws -> MenuItem? { try forwarded.menuItem(id: id) }
    func menuItemExists(id: String) throws -> Bool { try forwarded.menuItemExists(id: id) }
    func insertMenuItem(_ item: MenuItem) throws { try forwarded.insertMenuItem(item) }
    func updateMenuItem(_ item: MenuItem) throws { try forwarded.updateMenuItem(item) }
    func replaceModifierGroups(menuItemId: String, with groups: [ModifierGroup]) throws {
        try forwarded.replaceModifierGroups(menuItemId: menuItemId, with: groups)
    }
    func retireMenuItem(id: String, at date: Date) throws { try forwarded.retireMenuItem(id: id, at: date) }
    func takeFromStock(_ sold: [String: Int]) throws { try forwarded.takeFromStock(sold) }
    func menuCategory(id: String) throws -> MenuCategory? { try forwarded.menuCategory(id: id) }
    func menuCategoryExists(id: String) throws -> Bool { try forwarded.menuCategoryExists(id: id) }
    func insertMenuCategory(_ category: MenuCategory) throws { try forwarded.insertMenuCategory(category) }
    func updateMenuCategory(_ category: MenuCategory) throws { try forwarded.updateMenuCategory(category) }
    func retireMenuCategory(id: String, at date: Date) throws { try forwarded.retireMenuCategory(id: id, at: date) }
    func menuItemCount(category id: String) throws -> Int { try forwarded.menuItemCount(category: id) }
    func bill(id: String) throws -> Bill? { try forwarded.bill(id: id) }
    func currentBill(deviceId: String) throws -> Bill? { try forwarded.currentBill(deviceId: deviceId) }
    func emptyOpenBill(deviceId: String) throws -> Bill? { try forwarded.emptyOpenBill(deviceId: deviceId) }
    func insert(_ bill: Bill) throws { try forwarded.insert(bill) }
    func update(_ bill: Bill) throws { try forwarded.update(bill) }
    func insert(_ payment: Payment) throws { try forwarded.insert(payment) }
    func nextReceiptNumber() throws -> Int64 { try forwarded.nextReceiptNumber() }
    func insert(_ refund: Refund) throws { try forwarded.insert(refund) }
    func refunds(billId: String) throws -> [Refund] { try forwarded.refunds(billId: billId) }
    func openShift(deviceId: String) throws -> DrawerShift? { try forwarded.openShift(deviceId: deviceId) }
    func insert(_ shift: DrawerShift) throws { try forwarded.insert(shift) }
    func close(_ shift: DrawerShift) throws { try forwarded.close(shift) }
    func insert(_ movement: DrawerMovement) throws { try forwarded.insert(movement) }
    func drawerFigures(of shift: DrawerShift) throws -> DrawerFigures { try forwarded.drawerFigures(of: shift) }
    func insert(_ device: Device, tokenDigest: [UInt8]) throws { try forwarded.insert(device, tokenDigest: tokenDigest) }
    func device(id: String) throws -> Device? { try forwarded.device(id: id) }
    func revokeDevice(id: String, at date: Date) throws { try forwarded.revokeDevice(id: id, at: date) }
    func setNextToken(deviceId: String, tokenDigest: [UInt8]) throws { try forwarded.setNextToken(deviceId: deviceId, tokenDigest: tokenDigest) }
    func promoteNextToken(deviceId: String, tokenDigest: [UInt8]) throws {
        try forwarded.promoteNextToken(deviceId: deviceId, tokenDigest: tokenDigest)
    }
    func recordedAnswer(deviceId: String, key: String) throws -> RecordedAnswer? {
        try forwarded.recordedAnswer(deviceId: deviceId, key: key)
    }
    func record(_ answer: RecordedAnswer) throws { try forwarded.record(answer) }
    func deleteRecordedAnswers(before date: Date) throws { try forwarded.deleteRecordedAnswers(before: date) }
}
