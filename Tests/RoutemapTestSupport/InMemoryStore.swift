import Foundation
import RoutemapDomain
import Synchronization

/// A ``POSStore`` in memory, for tests of the use cases and of code above them: a write works
/// on a copy of the state and commits it only if the body returns, like a database transaction.
/// Writes are serialized by one lock; reads see the last committed state.
public final class InMemoryStore: POSStore {
    /// Everything the store holds, as tests inspect it.
    public struct State: Sendable {
        public var menu: [MenuItem] = []
        /// Ids of retired menu items (still in `menu`, off the listing).
        public var retiredMenuItems: Set<String> = []
        /// Bumped by every menu change.
        public var menuRevision = 1
        /// How many times a write took sold items off their stock counts (a statement in a store).
        public var stockStatements = 0
        /// Bumped by every change to a device.
        public var deviceRevision = 1
        /// Categories in menu order, with the ids of retired ones.
        public var categories: [MenuCategory] = []
        public var retiredCategories: Set<String> = []
        public var bills: [String: Bill] = [:]
        /// Bill ids in creation order.
        public var billOrder: [String] = []
        public var payments: [Payment] = []
        /// Refunds in the order they were recorded.
        public var refunds: [Refund] = []
        /// Cash drawer shifts, in the order they were opened (a closed one as it was closed).
        public var shifts: [DrawerShift] = []
        /// Cash paid in and out of the shifts' drawers, in the order it was recorded.
        public var drawerMovements: [DrawerMovement] = []
        /// Enrolled devices with the digests of their tokens.
        public var devices: [(device: Device, tokenDigest: [UInt8])] = []
        /// Digests of rotated tokens not used yet, by device id.
        public var nextTokenDigests: [String: [UInt8]] = [:]
        /// Recorded answers to idempotency keys, by device id and key.
        public var recordedAnswers: [RecordedKey: RecordedAnswer] = [:]
        /// The durability of every committed write, in commit order.
        public var committedDurabilities: [Durability] = []

        /// The current bill of `deviceId`, as the SQLite store finds it: of its unsettled bills,
        /// the one selected last (the later created on a tie).
        public func currentBill(deviceId: String) -> Bill? {
            billOrder.reversed().lazy.compactMap { bills[$0] }.filter { $0.status.isUnsettled && $0.deviceId == deviceId }
                .max { $0.selectedAt < $1.selectedAt }
        }

        /// As ``POSStore/refunds(billId:)``: oldest first, then as recorded.
        public func refunds(billId: String) -> [Refund] {
            refunds.enumerated().filter { $0.element.billId == billId }
                .sorted { ($0.element.createdAt, $0.offset) < ($1.element.createdAt, $1.offset) }.map(\.element)
        }

        /// As ``POSStore/openShift(deviceId:)``.
        public func openShift(deviceId: String) -> DrawerShift? {
            shifts.first { $0.deviceId == deviceId && $0.isOpen }
        }

        /// As ``POSStore/drawerFigures(of:)``: the domain's rule over the records.
        public func drawerFigures(of shift: DrawerShift) throws -> DrawerFigures {
            try DrawerFigures(of: shift, payments: payments, refunds: refunds, movements: drawerMovements)
        }

        /// As ``POSStore/unsettledBills(deviceId:statuses:after:limit:)``.
        public func unsettledBills(deviceId: String, statuses: Set<BillStatus>, after cursor: BillCursor?, limit: Int) -> [Bill] {
            let bills = self.bills.values.filter { $0.deviceId == deviceId && $0.status.isUnsettled && statuses.contains($0.status) }
                .sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
                .filter { bill in cursor.map { (bill.createdAt, bill.id) < ($0.createdAt, $0.id) } ?? true }
            return Array(bills.prefix(limit))
        }
    }

    /// The key of a recorded answer: a key belongs to one device.
    public struct RecordedKey: Hashable, Sendable {
        public let deviceId: String
        public let key: String
    }

    private let state: Mutex<State>
    /// Serializes writes: held while a write's body runs. Reads take `state` only briefly and see
    /// the committed state, as SQLite's readers do, so a write's body may read through the store
    /// (an answer recorded in the write reads the menu) without locking `state` twice.
    private let writer = Mutex(())

    /// Whether callers may read on their own thread. `false` makes this store stand for one
    /// whose reads are round trips (PostgreSQL's), so that code must read inside `reading`.
    public let readsAreImmediate: Bool
    private let readings = Atomic<Int>(0)
    private let readsOutside = Atomic<Int>(0)
    @TaskLocal private static var insideReading = false

    /// How many bodies `reading` has run.
    public var readingCount: Int { readings.load(ordering: .relaxed) }
    /// How many reads through the store (`POSStore`'s read methods, not `snapshot`) were made
    /// outside `reading` while `readsAreImmediate` is false: each one a thread a real store of
    /// that kind would have held for a round trip.
    public var readsOutsideReading: Int { readsOutside.load(ordering: .relaxed) }

    public func reading<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        readings.add(1, ordering: .relaxed)
        await Task.yield()  // it suspends, as a round trip would
        return try Self.$insideReading.withValue(true) { try body() }
    }

    /// The committed state, for a read through the store.
    private var committed: State {
        if !readsAreImmediate, !Self.insideReading { readsOutside.add(1, ordering: .relaxed) }
        return snapshot
    }

    /// A store holding `menu` and nothing else.
    public init(menu: [MenuItem], readsAreImmediate: Bool = true) {
        self.readsAreImmediate = readsAreImmediate
        var state = State(menu: menu)
        for item in menu where !state.categories.contains(where: { $0.id == item.category }) {
            state.categories.append(MenuCategory(id: item.category, name: item.category.prefix(1).uppercased() + item.category.dropFirst()))
        }
        self.state = Mutex(state)
    }

    /// The committed state.
    public var snapshot: State { state.withLock { $0 } }

    public func menuItems() throws -> [MenuItem] {
        let state = committed
        return state.menu.filter { !state.retiredMenuItems.contains($0.id) }
    }

    public func menuRevision() throws -> Int { committed.menuRevision }
    public func deviceRevision() throws -> Int { committed.deviceRevision }

    public func menuCategories() throws -> [MenuCategory] {
        let state = committed
        return state.categories.filter { !state.retiredCategories.contains($0.id) }
    }

    public func bill(id: String) throws -> Bill? { committed.bills[id] }

    public func currentBill(deviceId: String) throws -> Bill? { committed.currentBill(deviceId: deviceId) }

    public func unsettledBills(deviceId: String, statuses: Set<BillStatus>, after cursor: BillCursor?, limit: Int) throws -> [Bill] {
        committed.unsettledBills(deviceId: deviceId, statuses: statuses, after: cursor, limit: limit)
    }

    public func payment(id: String) throws -> Payment? { committed.payments.first { $0.id == id } }

    public func refunds(billId: String) throws -> [Refund] { committed.refunds(billId: billId) }

    public func salesFigures(in period: SalesPeriod) throws -> SalesFigures {
        try committed.salesFigures(in: period)
    }

    public func shift(id: String) throws -> DrawerShift? { committed.shifts.first { $0.id == id } }

    public func openShift(deviceId: String) throws -> DrawerShift? { committed.openShift(deviceId: deviceId) }

    public func drawerFigures(of shift: DrawerShift) throws -> DrawerFigures { try committed.drawerFigures(of: shift) }

    /// As the stores list them: newest first, then by id.
    public func shifts(deviceId: String?, after cursor: ShiftCursor?, limit: Int) throws -> [DrawerShift] {
        let shifts = committed.shifts.filter { shift in deviceId.map { shift.deviceId == $0 } ?? true }
            .sorted { ($0.openedAt, $0.id) > ($1.openedAt, $1.id) }
            .filter { shift in cursor.map { (shift.openedAt, shift.id) < ($0.openedAt, $0.id) } ?? true }
        return Array(shifts.prefix(limit))
    }

    public func device(tokenDigest: [UInt8]) throws -> Device? {
        committed.devices.first { $0.tokenDigest == tokenDigest }?.device
    }

    public func write<T: Sendable>(durability: Durability, _ body: @escaping @Sendable (any POSTransaction) throws -> T) async throws -> T {
        try writer.withLock { _ in
            let transaction = InMemoryTransaction(state: snapshot)
            let result = try body(transaction)
            state.withLock { state in
                state = transaction.state
                state.committedDurabilities.append(durability)
            }
            return result
        }
    }

    public func ping() throws {}
}

extension InMemoryStore {
    public func devices() throws -> [Device] { committed.devices.map(\.device) }

    public func device(nextTokenDigest: [UInt8]) throws -> Device? {
        let state = committed
        guard let id = state.nextTokenDigests.first(where: { $0.value == nextTokenDigest })?.key else { return nil }
        return state.devices.first { $0.device.id == id }?.device
    }
}

extension InMemoryStore.State {
    /// As ``POSStore/salesFigures(in:)``, summed bill by bill with checked arithmetic.
    public func salesFigures(in period: SalesPeriod) throws -> SalesFigures {
        typealias Report = SalesReport
        func add<N: FixedWidthInteger>(_ first: N, _ second: N) throws -> N { try Report.sum(first, second, "a sum") }
        var figures = SalesFigures()
        var sales = (bills: 0, subtotal: Int64(0), tax: Int64(0), total: Int64(0))
        var discounts = Report.MethodTotals.zero
        // By item: quantity, amount, and the name of the latest paid line (by payment time, then payment id, then position).
        var items: [String: (quantity: Int, amount: Int64, name: String, latest: (Date, String, Int))] = [:]
        for payment in payments where period.contains(payment.createdAt) {
            let takings = figures[payments: payment.method]
            figures[payments: payment.method] = Report.Takings(
                count: try add(takings.count, 1), amountMinor: try add(takings.amountMinor, payment.amountMinor),
                tenderedMinor: try add(takings.tenderedMinor, payment.tenderedMinor), changeMinor: try add(takings.changeMinor, payment.changeMinor))
            if payment.tipMinor > 0 {
                let tips = figures[tips: payment.method]
                figures[tips: payment.method] = Report.MethodTotals(
                    count: try add(tips.count, 1), amountMinor: try add(tips.amountMinor, payment.tipMinor))
            }
            // A bill is a sale once, with the payment that completed it (its last).
            guard let bill = bills[payment.billId], bill.status == .paid,
                !payments.contains(where: { $0.billId == payment.billId && $0.receiptNumber > payment.receiptNumber })
            else { continue }
            sales = (
                try add(sales.bills, 1), try add(sales.subtotal, bill.subtotalMinor), try add(sales.tax, bill.taxMinor),
                try add(sales.total, bill.totalMinor)
            )
            if bill.discountMinor > 0 {
                discounts = Report.MethodTotals(count: try add(discounts.count, 1), amountMinor: try add(discounts.amountMinor, bill.discountMinor))
            }
            for (position, line) in bill.lines.enumerated() {
                let order = (payment.createdAt, payment.id, position)
                var item = items[line.menuItemId] ?? (0, 0, line.name, order)
                item.quantity = try add(item.quantity, line.quantity)
                item.amount = try add(item.amount, line.lineTotalMinor)
                if order >= item.latest { (item.name, item.latest) = (line.name, order) }
                items[line.menuItemId] = item
            }
        }
        figures.sales = Report.Sales(
            bills: sales.bills, subtotalMinor: sales.subtotal, discounts: discounts, taxMinor: sales.tax, totalMinor: sales.total,
            items: items.map { Report.ItemSales(menuItemId: $0.key, name: $0.value.name, quantity: $0.value.quantity, amountMinor: $0.value.amount) })
        var voids = (count: 0, total: Int64(0))
        var unsettled = (open: 0, checkedOut: 0, total: Int64(0))
        for bill in bills.values {
            if let voiding = bill.voiding, period.contains(voiding.voidedAt) {
                voids = (try add(voids.count, 1), try add(voids.total, bill.totalMinor))
            }
            switch bill.status {
            case .open: unsettled.open = try add(unsettled.open, 1)
            case .checkedOut: unsettled = (unsettled.open, try add(unsettled.checkedOut, 1), try add(unsettled.total, bill.totalMinor))
            case .paid, .voided: break
            }
        }
        figures.voids = Report.Voids(count: voids.count, totalMinor: voids.total)
        for refund in refunds where period.contains(refund.createdAt) {
            let totals = figures[refunds: refund.method]
            figures[refunds: refund.method] = Report.MethodTotals(
                count: try add(totals.count, 1), amountMinor: try add(totals.amountMinor, refund.amountMinor))
        }
        figures.unsettled = Report.Unsettled(open: unsettled.open, checkedOut: unsettled.checkedOut, checkedOutTotalMinor: unsettled.total)
        return figures
    }
}
