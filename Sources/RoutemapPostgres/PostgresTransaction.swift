import Foundation
import PostgresNIO
import RoutemapDomain
import RoutemapStorage

/// The store's statements on one ``Session``: a ``POSTransaction`` inside
/// ``PostgresStore/write(durability:_:)``, and the store's reads outside one (each statement on
/// its own, seeing every commit made before it began).
///
/// In a transaction (READ COMMITTED: each statement sees every commit made before it began),
/// what a use case reads in order to decide is locked first, so that a concurrent transaction
/// deciding on the same thing waits for this one and then sees its effect:
/// - a bill (`bill(id:)`): its row, `FOR UPDATE`;
/// - a device's current bill (`currentBill(deviceId:)`): the device, by an advisory lock;
/// - an idempotency key (`recordedAnswer`): the device and key, by an advisory lock;
/// - a device's open shift (`openShift(deviceId:)`): the device, by an advisory lock;
/// - a device (`device(id:)`): its row, `FOR UPDATE`;
/// - the receipt counter (`nextReceiptNumber()`): its one row, by the `UPDATE` that raises it,
///   taken last (after the key, the bill and the device's current bill) by every payment;
/// - a category (`menuCategory(id:)`): its row `FOR SHARE` (an item created in it), or
///   `FOR UPDATE` before its items are counted (retiring it);
/// - a menu item or category changed from what this transaction read: the update applies only
///   over the values read, or the transaction runs again.
///
/// Writes are queued on the session (pipelined) and checked before the next read or the commit.
/// Used by one thread at a time, while the closure that received it runs.
///
/// `@unchecked Sendable`: it is mutable and not thread-safe, and it is safe because only one
/// thread ever holds it: the store makes it on the thread that leased the connection, hands it
/// to a closure running on that thread, and binds it to that thread alone (a thread-specific
/// variable) until the closure returns.
final class PostgresTransaction: POSTransaction, @unchecked Sendable {
    let session: Session
    /// Whether this is a write transaction (its reads lock what they decide on); `false` for
    /// the store's plain reads.
    let isTransaction: Bool
    /// Bills as this transaction read or wrote them: what `update` compares with, to write only
    /// the lines that changed.
    private var known: [String: Bill] = [:]
    /// The ids of the bills this transaction inserted or updated.
    private var written: Set<String> = []
    /// The ids of the bills whose rows this transaction holds: locked before it read them
    /// (``bill(id:)``), or inserted by it. An update of one changes exactly its row, so it
    /// needs no check before the commit.
    private var held: Set<String> = []

    /// The bills this transaction wrote, as it wrote them: once it has committed, their latest
    /// versions (each was locked, or new, until then).
    var writtenBills: [Bill] { written.compactMap { known[$0] } }
    /// Menu items and categories as this transaction read them: an update applies over these.
    private var knownItems: [String: MenuItem] = [:]
    private var knownCategories: [String: MenuCategory] = [:]

    init(session: Session, isTransaction: Bool) {
        self.session = session
        self.isTransaction = isTransaction
    }

    /// Advisory lock namespaces (the first key of `pg_advisory_xact_lock(int, int)`).
    enum LockSpace: Int32 {
        /// A device's current bill.
        case currentBill = 1
        /// A device's idempotency key.
        case idempotencyKey = 2
        /// A device's cash drawer shifts.
        case drawerShift = 3
    }

    /// Waits for (then holds, until the transaction ends) the lock on `key` in `space`.
    func lock(_ space: LockSpace, _ key: String) throws {
        try session.enqueue(prepared: AdvisoryLock(space: space, key: key))
    }

    // MARK: Menu

    /// The menu item `$1`, not retired, with its modifiers.
    static let menuItemSQL = """
        SELECT \(menuItemColumns) FROM menu_items i \(modifiersJoin)
        WHERE i.id = $1 AND i.retired_at IS NULL ORDER BY g.position, o.position
        """

    func menuItem(id: String) throws -> MenuItem? {
        guard Self.storable(id) else { return nil }
        let item = try Self.menuItems(
            in: session.rows(prepared: MenuItemRead(id: id))
        ).first
        if isTransaction, let item { knownItems[id] = item }
        return item
    }

    /// Every menu item on the menu (not retired), in menu order.
    func menuItems() throws -> [MenuItem] {
        try Self.menuItems(
            in: session.rows(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT \(Self.menuItemColumns) FROM menu_items i \(Self.modifiersJoin)
                        WHERE i.retired_at IS NULL ORDER BY i.position, i.id, g.position, o.position
                        """)))
    }

    func menuItemExists(id: String) throws -> Bool {
        guard Self.storable(id) else { return false }
        return try !session.rows("SELECT 1 FROM menu_items WHERE id = \(id)").isEmpty
    }

    func insertMenuItem(_ item: MenuItem) throws {
        session.enqueue(
            """
            INSERT INTO menu_items (id, name, category, price_minor, currency, available, stock, position)
            VALUES (\(item.id), \(item.name), \(item.category), \(item.priceMinor), \(item.currency.rawValue), \(item.available),
                    \(item.stock), (SELECT coalesce(max(position), 0) + 10 FROM menu_items))
            """)
        insertModifierGroups(item.modifierGroups, menuItemId: item.id)
    }

    func updateMenuItem(_ item: MenuItem) throws {
        guard let read = knownItems[item.id] else { throw InvariantViolation("menu item \(item.id) is updated without being read first") }
        // Over what this transaction read: a concurrent change of another field is not undone.
        session.enqueue(
            """
            UPDATE menu_items SET name = \(item.name), category = \(item.category), price_minor = \(item.priceMinor),
                available = \(item.available), stock = \(item.stock)
            WHERE id = \(item.id) AND retired_at IS NULL AND name = \(read.name) AND category = \(read.category)
                AND price_minor = \(read.priceMinor) AND available = \(read.available) AND stock IS NOT DISTINCT FROM \(read.stock)
            """
        ) { changed in
            guard changed == 1 else { throw ConflictSignal(description: "menu item \(item.id) changed meanwhile") }
        }
        knownItems[item.id] = item
    }

    func takeFromStock(_ sold: [String: Int]) throws {
        // One statement, however many items: the menu revision's trigger runs once per
        // statement, on its one row, which every other menu change (and payment of a counted
        // item) then waits for until this commits. `stock - quantity` is computed on the row as
        // locked: two payments of croissants on two nodes both count. A deadlock between two
        // such payments is run again, as every deadlock is.
        let ids = sold.keys.sorted()
        session.enqueue(
            """
            UPDATE menu_items m SET stock = m.stock - s.quantity
            FROM unnest(\(ids)::text[], \(ids.map { sold[$0] ?? 0 })::integer[]) AS s(id, quantity)
            WHERE m.id = s.id AND m.stock IS NOT NULL
            """)
    }

    func retireMenuItem(id: String, at date: Date) throws {
        session.enqueue("UPDATE menu_items SET retired_at = \(date) WHERE id = \(id) AND retired_at IS NULL")
    }

    func menuCategory(id: String) throws -> MenuCategory? {
        guard Self.storable(id) else { return nil }
        // Shared: an item created in (or moved to) the category keeps it from being retired
        // until this commits.
        let category = try session.rows(
            PostgresQuery(
                unsafeSQL: "SELECT id, name FROM menu_categories WHERE id = $1 AND retired_at IS NULL" + (isTransaction ? " FOR SHARE" : ""),
                binds: binds(id))
        ).first.map(Self.menuCategory)
        if isTransaction, let category { knownCategories[id] = category }
        return category
    }

    /// The categories on the menu (not retired), in menu order.
    func menuCategories() throws -> [MenuCategory] {
        try session.rows("SELECT id, name FROM menu_categories WHERE retired_at IS NULL ORDER BY position, id").map(Self.menuCategory)
    }

    func menuCategoryExists(id: String) throws -> Bool {
        guard Self.storable(id) else { return false }
        return try !session.rows("SELECT 1 FROM menu_categories WHERE id = \(id)").isEmpty
    }

    func insertMenuCategory(_ category: MenuCategory) throws {
        session.enqueue(
            """
            INSERT INTO menu_categories (id, name, position)
            VALUES (\(category.id), \(category.name), (SELECT coalesce(max(position), 0) + 10 FROM menu_categories))
            """)
    }

    func updateMenuCategory(_ category: MenuCategory) throws {
        guard let read = knownCategories[category.id] else {
            throw InvariantViolation("menu category \(category.id) is updated without being read first")
        }
        session.enqueue(
            "UPDATE menu_categories SET name = \(category.name) WHERE id = \(category.id) AND retired_at IS NULL AND name = \(read.name)"
        ) { changed in
            guard changed == 1 else { throw ConflictSignal(description: "category \(category.id) changed meanwhile") }
        }
        knownCategories[category.id] = category
    }

    func retireMenuCategory(id: String, at date: Date) throws {
        session.enqueue("UPDATE menu_categories SET retired_at = \(date) WHERE id = \(id) AND retired_at IS NULL")
    }

    func menuItemCount(category id: String) throws -> Int {
        // Before counting, the category is locked against items being created in it meanwhile.
        if isTransaction { session.enqueue("SELECT 1 FROM menu_categories WHERE id = \(id) FOR UPDATE") }
        return try session.rows("SELECT count(*) FROM menu_items WHERE category = \(id) AND retired_at IS NULL").first
            .map { try $0.decode(Int.self) } ?? 0
    }

    /// The menu's revision (bumped by triggers on every menu change).
    func menuRevision() throws -> Int {
        try session.rows("SELECT revision FROM menu_revision WHERE id = 1").first.map { try $0.decode(Int.self) } ?? 0
    }

    // MARK: Bills

    /// A bill's columns then its lines' (`NULL`s for a bill without lines, the line's note
    /// after its modifiers', then the bill's label) and their modifiers'
    /// (`NULL`s for a line without any), over `bills b`, `bill_lines l` and `bill_line_modifiers
    /// m` (``linesJoin``): one row per line and modifier, in order.
    private static let billColumns = """
        b.id, b.status, b.currency, b.tax_rate_bps, b.subtotal_minor, b.tax_minor, b.total_minor, b.version, b.created_at,
        b.device_id, b.selected_at, b.void_reason, b.voided_at,
        l.line_id, l.menu_item_id, l.name, l.quantity, l.unit_price_minor,
        b.discount_percent_bps, b.discount_amount_minor, b.discount_reason, b.discount_minor, b.paid_minor,
        m.option_id, m.name, m.price_minor, l.note, b.label
        """

    /// A bill's lines and their modifiers, joined to `bills b` (a line without modifiers is one
    /// row, found by one more probe of the modifiers' key).
    private static let linesJoin = """
        LEFT JOIN bill_lines l ON l.bill_id = b.id
        LEFT JOIN bill_line_modifiers m ON m.bill_id = l.bill_id AND m.line_id = l.line_id
        """

    /// The bill `$1`, with its lines.
    static let billSQL = """
        SELECT \(billColumns)
        FROM bills b \(linesJoin)
        WHERE b.id = $1 ORDER BY l.position, m.position
        """

    func bill(id: String) throws -> Bill? {
        guard Self.storable(id) else { return nil }
        // Locked, then read by a statement of its own: the join then sees the bill and its lines
        // as the last transaction to change them left them.
        let locking = isTransaction && known[id] == nil
        if locking { try session.enqueue(prepared: BillLock(id: id)) }
        let bill = try bills(in: session.rows(prepared: BillRead(id: id))).first
        if let bill {
            known[bill.id] = bill
            // Held only if there was a row to lock.
            if locking { held.insert(bill.id) }
        }
        return bill
    }

    /// Which of a device's bills is its current one: of its unsettled bills (`WHERE`), the first
    /// in this order. The bill version check (`CheckedBillCache.swift`) picks it by the same rule.
    /// `unsettled` is the partial index's WHERE clause, word for word, and the index
    /// `bills_unsettled_by_device_selected_at` is (device_id, `currentFirst`) (migration 0016),
    /// so the current bill is its device's first entry, found without a sort.
    static let unsettled = "status IN ('open', 'checked_out')"
    static let currentFirst = "selected_at DESC, seq DESC"

    /// The current bill of device `$1`, with its lines.
    static let currentBillSQL = """
        SELECT \(billColumns)
        FROM (SELECT * FROM bills WHERE device_id = $1 AND \(unsettled)
              ORDER BY \(currentFirst) LIMIT 1) b
        \(linesJoin)
        ORDER BY l.position, m.position
        """

    func currentBill(deviceId: String) throws -> Bill? {
        // Which bill is current, and whether there is one, is decided by one transaction at a time.
        if isTransaction { try lock(.currentBill, deviceId) }
        let bill = try bills(
            in: session.rows(PostgresQuery(unsafeSQL: Self.currentBillSQL, binds: binds(deviceId)))
        ).first
        if let bill { known[bill.id] = bill }
        return bill
    }

    /// The id of device `$1`'s open bill with no lines selected last: its unsettled bills in
    /// `currentFirst` order (by the same index), the first open one without lines.
    static let emptyOpenBillSQL = """
        SELECT id FROM bills
        WHERE device_id = $1 AND \(unsettled) AND status = 'open'
            AND NOT EXISTS (SELECT 1 FROM bill_lines l WHERE l.bill_id = bills.id)
        ORDER BY \(currentFirst) LIMIT 1
        """

    func emptyOpenBill(deviceId: String) throws -> Bill? {
        // Under the device's current-bill lock: what becomes its next bill is decided by one
        // transaction at a time.
        if isTransaction { try lock(.currentBill, deviceId) }
        guard let id = try session.rows(prepared: EmptyOpenBillRead(id: deviceId)).first
            .map({ try $0.decode(String.self) })
        else { return nil }
        // Locked, then read again: a line added by a transaction that committed meanwhile makes
        // it no longer empty. `bill(id:)` locks a bill this transaction has not read, so one it
        // has (the current bill reads without locking) is forgotten first.
        if isTransaction, !held.contains(id) { known[id] = nil }
        guard let bill = try bill(id: id), bill.status == .open, bill.lines.isEmpty else { return nil }
        return bill
    }

    /// Up to `limit` unsettled bills of `deviceId` with a status in `statuses`, newest first,
    /// after `cursor`. The WHERE clause repeats the partial index's, so the device's unsettled
    /// bills are found by `bills_unsettled_by_device_selected_at`; that index is in selection
    /// order (for the current bill), so these few are then sorted by creation.
    func unsettledBills(deviceId: String, statuses: Set<BillStatus>, after cursor: BillCursor?, limit: Int) throws -> [Bill] {
        let wanted = BillStatus.allCases.filter { $0.isUnsettled && statuses.contains($0) }.map(\.rawValue)
        guard !wanted.isEmpty else { return [] }
        var bindings = PostgresBindings()
        bindings.append(deviceId)
        bindings.append(wanted)
        var page = "device_id = $1 AND \(Self.unsettled) AND status = ANY($2)"
        if let cursor {
            bindings.append(cursor.createdAt)
            bindings.append(cursor.id)
            page += " AND (created_at < $3 OR (created_at = $3 AND id < $4))"
        }
        bindings.append(limit)
        let sql = """
            SELECT \(Self.billColumns)
            FROM (SELECT * FROM bills WHERE \(page) ORDER BY created_at DESC, id DESC LIMIT $\(bindings.count)) b
            \(Self.linesJoin)
            ORDER BY b.created_at DESC, b.id DESC, l.position, m.position
            """
        return try bills(in: session.rows(PostgresQuery(unsafeSQL: sql, binds: bindings)))
    }

    func insert(_ bill: Bill) throws {
        try session.enqueue(prepared: BillInsert(bill, notesVersion: Self.notesVersion(bill), at: Date()))
        held.insert(bill.id)
        try insertLines(of: bill, from: 0)
        known[bill.id] = bill
        written.insert(bill.id)
    }

    func update(_ bill: Bill) throws {
        let previous = known[bill.id]
        if let previous, previous.version >= bill.version { throw StorageError.staleBill(id: bill.id, version: bill.version) }
        // Only over an older version: a stale copy of the bill must not overwrite a newer one.
        // A bill this transaction holds was read as it is (under its lock, which keeps every
        // other writer out until the commit): the update changes its one row, unchecked. One
        // read without its lock (a device's current bill) is checked.
        let check: ((Int?) throws -> Void)? =
            held.contains(bill.id)
            ? nil : { changed in guard changed == 1 else { throw StorageError.staleBill(id: bill.id, version: bill.version) } }
        try session.enqueue(prepared: BillUpdate(bill, notesVersion: Self.notesVersion(bill), at: Date()), check: check)
        try updateLines(of: bill, previous: previous)
        known[bill.id] = bill
        written.insert(bill.id)
    }

    // MARK: Payments

    private static let paymentColumns =
        "id, bill_id, receipt_number, method, amount_minor, tip_minor, tendered_minor, change_minor, created_at, device_id"

    func insert(_ payment: Payment) throws {
        try session.enqueue(prepared: PaymentInsert(payment))
    }

    /// The payment with `id`, if any.
    func payment(id: String) throws -> Payment? {
        guard Self.storable(id) else { return nil }
        return try session.rows(PostgresQuery(unsafeSQL: "SELECT \(Self.paymentColumns) FROM payments WHERE id = $1", binds: binds(id)))
            .first.map(Self.payment)
    }

    // MARK: Devices

    private static let deviceColumns = "id, name, created_at, role, revoked_at"

    func insert(_ device: Device, tokenDigest: [UInt8]) throws {
        session.enqueue(
            """
            INSERT INTO devices (id, name, token_digest, created_at, role, revoked_at)
            VALUES (\(device.id), \(device.name), \(ByteBuffer(bytes: tokenDigest)), \(device.createdAt), \(device.role.rawValue), \(device.revokedAt))
            """)
    }

    func device(id: String) throws -> Device? {
        guard Self.storable(id) else { return nil }
        return try session.rows(
            PostgresQuery(
                unsafeSQL: "SELECT \(Self.deviceColumns) FROM devices WHERE id = $1" + (isTransaction ? " FOR UPDATE" : ""), binds: binds(id))
        ).first.map(Self.device)
    }

    /// The device whose token has this digest, revoked or not.
    func device(tokenDigest: [UInt8]) throws -> Device? {
        var bindings = PostgresBindings()
        bindings.append(ByteBuffer(bytes: tokenDigest))
        return try session.rows(PostgresQuery(unsafeSQL: "SELECT \(Self.deviceColumns) FROM devices WHERE token_digest = $1", binds: bindings))
            .first.map(Self.device)
    }

    /// The device whose rotated, unused token has this digest.
    func device(nextTokenDigest: [UInt8]) throws -> Device? {
        var bindings = PostgresBindings()
        bindings.append(ByteBuffer(bytes: nextTokenDigest))
        return try session.rows(
            PostgresQuery(unsafeSQL: "SELECT \(Self.deviceColumns) FROM devices WHERE next_token_digest = $1", binds: bindings)
        ).first.map(Self.device)
    }

    /// Every device, oldest first.
    func devices() throws -> [Device] {
        try session.rows(PostgresQuery(unsafeSQL: "SELECT \(Self.deviceColumns) FROM devices ORDER BY created_at, id")).map(Self.device)
    }

    /// The device revision (bumped by triggers on every device change).
    func deviceRevision() throws -> Int {
        try session.rows("SELECT revision FROM device_revision WHERE id = 1").first.map { try $0.decode(Int.self) } ?? 0
    }

    func revokeDevice(id: String, at date: Date) throws {
        session.enqueue("UPDATE devices SET revoked_at = \(date) WHERE id = \(id)")
    }

    func setNextToken(deviceId: String, tokenDigest: [UInt8]) throws {
        session.enqueue("UPDATE devices SET next_token_digest = \(ByteBuffer(bytes: tokenDigest)) WHERE id = \(deviceId)")
    }

    func promoteNextToken(deviceId: String, tokenDigest: [UInt8]) throws {
        session.enqueue(
            """
            UPDATE devices SET token_digest = next_token_digest, next_token_digest = NULL
            WHERE id = \(deviceId) AND next_token_digest = \(ByteBuffer(bytes: tokenDigest))
            """)
    }

    // MARK: Idempotency keys

    func recordedAnswer(deviceId: String, key: String) throws -> RecordedAnswer? {
        // The database arbitrates a key between nodes: a second transaction with it waits here
        // until the first has committed (or rolled back), then finds its answer (or none).
        if isTransaction { try lock(.idempotencyKey, deviceId + " " + key) }
        return try session.rows(prepared: RecordedAnswerRead(deviceId: deviceId, key: key)).first.map { row in
            let (deviceId, key, fingerprint, answer, createdAt) = try row.decode((String, String, String, Data, Date).self)
            return RecordedAnswer(
                deviceId: deviceId, key: key, fingerprint: fingerprint, answer: Array(answer), createdAt: createdAt.roundedToMilliseconds)
        }
    }

    /// Inserts the answer, or replaces an expired one with the same device and key. Two
    /// transactions cannot record the same key: the key's lock (taken when it was looked up)
    /// makes the second wait for the first and then find its answer.
    func record(_ answer: RecordedAnswer) throws {
        try session.enqueue(prepared: RecordAnswer(answer))
    }

    func deleteRecordedAnswers(before date: Date) throws {
        session.enqueue("DELETE FROM idempotency_keys WHERE created_at < \(date)")
    }

    // MARK: Helpers

    /// Whether `text` can be stored: PostgreSQL's text holds no U+0000, so no row has an id with
    /// one, and a lookup by such an id (a request's garbage) finds nothing without asking.
    private static func storable(_ text: String) -> Bool {
        !text.utf8.contains(0)
    }

    /// `bills.notes_version` for `bill`: its version when a line has a note, else `NULL`
    /// (migration 0025's guard: a binary that knows notes wrote it).
    private static func notesVersion(_ bill: Bill) -> Int? {
        bill.lines.contains { $0.lineNote != nil } ? bill.version : nil
    }

    /// Writes the lines of `bill` that differ from `previous` (its stored state, when this
    /// transaction read it): a line added at the end, a quantity or a note changed touch one
    /// row; a removal rewrites the lines.
    private func updateLines(of bill: Bill, previous: Bill?) throws {
        guard let previous, previous.lines.count <= bill.lines.count,
            zip(previous.lines, bill.lines).allSatisfy({ $0.lineId == $1.lineId })
        else {
            session.enqueue("DELETE FROM bill_lines WHERE bill_id = \(bill.id)")
            // Their modifiers too, when the stored lines had any or are unknown.
            if previous.map({ $0.lines.contains { !$0.modifiers.isEmpty } }) ?? true {
                session.enqueue("DELETE FROM bill_line_modifiers WHERE bill_id = \(bill.id)")
            }
            try insertLines(of: bill, from: 0)
            return
        }
        // modifier_stamp: written by a binary that knows modifiers (migration 0023's guard).
        for (position, (old, new)) in zip(previous.lines, bill.lines).enumerated() where old != new {
            try session.enqueue(prepared: LineUpdate(billId: bill.id, position: position, line: new))
        }
        try insertLines(of: bill, from: previous.lines.count)
    }

    /// Inserts the lines of `bill` from index `start` on, at their index as position.
    private func insertLines(of bill: Bill, from start: Int) throws {
        for position in bill.lines.indices.dropFirst(start) {
            let line = bill.lines[position]
            try session.enqueue(prepared: LineInsert(billId: bill.id, position: position, line: line))
            for (index, modifier) in line.modifiers.enumerated() {
                session.enqueue(
                    """
                    INSERT INTO bill_line_modifiers (bill_id, line_id, position, option_id, name, price_minor)
                    VALUES (\(bill.id), \(line.lineId), \(index), \(modifier.optionId), \(modifier.name), \(modifier.priceMinor))
                    """)
            }
        }
    }

    private func binds(_ text: String) -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(text)
        return bindings
    }

    /// The bills in `rows` (``billColumns``, a bill's lines in order), each with its payments:
    /// read by one more statement for those that have any (paid, or `paid_minor` > 0: migration
    /// 0022), so a checked-out bill with none costs no round trip. Each row is decoded once.
    func bills(in rows: [PostgresRow]) throws -> [Bill] {
        let read = try Self.storedBills(in: rows)
        let paying = read.filter(\.hasPayments).map(\.id)
        var payments: [String: [Payment]] = [:]
        if !paying.isEmpty {
            var bindings = PostgresBindings()
            bindings.append(paying)
            for row in try session.rows(
                PostgresQuery(
                    unsafeSQL: "SELECT \(Self.paymentColumns) FROM payments WHERE bill_id = ANY($1) ORDER BY bill_id, receipt_number",
                    binds: bindings))
            {
                let payment = try Self.payment(row)
                payments[payment.billId, default: []].append(payment)
            }
        }
        return try read.map { try Self.bill($0, payments: payments[$0.id] ?? []) }
    }

    /// Where `b.paid_minor` is in ``billColumns``.
    private static let paidMinorColumn = 22

    /// A bill as its rows of ``billColumns`` hold it: its first row, with what is read of it
    /// before its payments are (its id, status and `paid_minor`) decoded there once, and its lines.
    private struct StoredBill {
        let id: String
        let status: String
        let paidMinor: Int64
        let cells: PostgresRandomAccessRow
        var lines: [BillLine]

        /// Whether its payments are read with it: paid, or partly paid (`paid_minor` > 0).
        var hasPayments: Bool { status == BillStatus.paid.rawValue || paidMinor > 0 }
    }

    /// The bills in `rows` (a bill's rows consecutive, one per line and modifier, in order),
    /// with their lines.
    private static func storedBills(in rows: [PostgresRow]) throws -> [StoredBill] {
        var bills: [StoredBill] = []
        /// The line being read (its rows are consecutive): its cells and modifiers so far.
        var pending: (cells: PostgresRandomAccessRow, lineId: String, modifiers: [BillLineModifier])?
        func finishLine() throws {
            guard let (cells, lineId, modifiers) = pending else { return }
            pending = nil
            do {
                bills[bills.count - 1].lines.append(
                    try BillLine(
                        lineId: lineId, menuItemId: try cells[14].decode(String.self), name: try cells[15].decode(String.self),
                        quantity: try cells[16].decode(Int.self), unitPriceMinor: try cells[17].decode(Int64.self), modifiers: modifiers,
                        note: try cells[26].decode(String?.self)))
            } catch let violation as InvariantViolation {
                throw StorageError.invalidRow(table: "bill_lines", id: lineId, reason: violation.description)
            }
        }
        for row in rows {
            let cells = row.makeRandomAccess()
            let id = try cells[0].decode(String.self)
            let lineId = try cells[13].decode(String?.self)
            if bills.last?.id != id || pending?.lineId != lineId { try finishLine() }
            if bills.last?.id != id {
                bills.append(
                    StoredBill(
                        id: id, status: try cells[1].decode(String.self), paidMinor: try cells[paidMinorColumn].decode(Int64.self),
                        cells: cells, lines: []))
            }
            guard let lineId else { continue }
            if pending == nil { pending = (cells, lineId, []) }
            if let optionId = try cells[23].decode(String?.self) {
                pending?.modifiers.append(
                    BillLineModifier(optionId: optionId, name: try cells[24].decode(String.self), priceMinor: try cells[25].decode(Int64.self)))
            }
        }
        try finishLine()
        return bills
    }

    private static func bill(_ stored: StoredBill, payments: [Payment]) throws -> Bill {
        let id = stored.id, cells = stored.cells, statusText = stored.status
        func invalid(_ reason: String) -> StorageError { StorageError.invalidRow(table: "bills", id: id, reason: reason) }
        let currencyText = try cells[2].decode(String.self)
        let rate = try cells[3].decode(Int.self)
        guard let status = BillStatus(rawValue: statusText) else { throw invalid("status '\(statusText)'") }
        guard let currency = Currency(rawValue: currencyText) else { throw invalid("currency '\(currencyText)'") }
        guard let taxRate = TaxRate(basisPoints: rate) else { throw invalid("tax rate \(rate) bps") }
        let subtotal = try cells[4].decode(Int64.self), tax = try cells[5].decode(Int64.self), total = try cells[6].decode(Int64.self)
        let discount: BillDiscount?
        do {
            discount = try BillDiscount.stored(
                percentBasisPoints: try cells[18].decode(Int?.self), amountMinor: try cells[19].decode(Int64?.self),
                reason: try cells[20].decode(String?.self))
        } catch let error as InvalidInput {
            throw invalid("discount: \(error.field) must be \(error.rule)")
        }
        var voiding: BillVoiding?
        if let reason = try cells[11].decode(String?.self), let voidedAt = try cells[12].decode(Date?.self) {
            voiding = BillVoiding(reason: reason, voidedAt: voidedAt.roundedToMilliseconds)
        }
        // A paid bill's paid_minor may be 0 (paid before migration 0022, or by a binary from
        // before it); a paid bill takes no more payments. An unsettled one's are those paid_minor
        // sums: outside a transaction its payments are read by a statement after its row's, which
        // may see payments committed since (a bill's payments are numbered in the order they
        // commit, each under the bill's lock), so the oldest that make up paid_minor are its own.
        var payments = payments
        if status.isUnsettled {
            let storedPaid = stored.paidMinor
            var sum: Int64 = 0, count = 0
            while sum < storedPaid, count < payments.count {
                sum = sum.addingReportingOverflow(payments[count].amountMinor).partialValue
                count += 1
            }
            guard sum == storedPaid else { throw invalid("paid_minor \(storedPaid) is not the sum of its payments") }
            payments = Array(payments.prefix(count))
        }
        let bill: Bill
        do {
            bill = try Bill(
                id: id, status: status, lines: stored.lines, currency: currency, taxRate: taxRate, version: try cells[7].decode(Int.self),
                createdAt: try cells[8].decode(Date.self).roundedToMilliseconds, selectedAt: try cells[10].decode(Date.self).roundedToMilliseconds,
                voiding: voiding, deviceId: try cells[9].decode(String?.self), discount: discount, payments: payments,
                label: try cells[27].decode(String?.self))
        } catch let violation as InvariantViolation {
            throw invalid(violation.description)
        }
        if let mismatch = bill.storedTotalsMismatch(
            subtotalMinor: subtotal, discountMinor: try cells[21].decode(Int64.self), taxMinor: tax, totalMinor: total)
        {
            throw invalid(mismatch)
        }
        return bill
    }

    static func menuItem(_ cells: PostgresRandomAccessRow, modifierGroups: [ModifierGroup]) throws -> MenuItem {
        let id = try cells[0].decode(String.self), currencyText = try cells[4].decode(String.self)
        guard let currency = Currency(rawValue: currencyText) else {
            throw StorageError.invalidRow(table: "menu_items", id: id, reason: "currency '\(currencyText)'")
        }
        return MenuItem(
            id: id, name: try cells[1].decode(String.self), category: try cells[2].decode(String.self), priceMinor: try cells[3].decode(Int64.self),
            currency: currency, available: try cells[5].decode(Bool.self), modifierGroups: modifierGroups,
            stock: try cells[13].decode(Int?.self))
    }

    private static func menuCategory(_ row: PostgresRow) throws -> MenuCategory {
        let (id, name) = try row.decode((String, String).self)
        return MenuCategory(id: id, name: name)
    }

    private static func payment(_ row: PostgresRow) throws -> Payment {
        let (id, billId, receiptNumber, methodText, amount, tip, tendered, change, createdAt, deviceId) = try row.decode(
            (String, String, Int64, String, Int64, Int64, Int64, Int64, Date, String?).self)
        let method = try PaymentMethod(stored: methodText, paymentId: id)
        return Payment(
            id: id, billId: billId, receiptNumber: receiptNumber, method: method, amountMinor: amount, tipMinor: tip, tenderedMinor: tendered,
            changeMinor: change, createdAt: createdAt.roundedToMilliseconds, deviceId: deviceId)
    }

    private static func device(_ row: PostgresRow) throws -> Device {
        let (id, name, createdAt, roleText, revokedAt) = try row.decode((String, String, Date, String, Date?).self)
        guard let role = DeviceRole(rawValue: roleText) else {
            throw StorageError.invalidRow(table: "devices", id: id, reason: "role '\(roleText)'")
        }
        return Device(id: id, name: name, createdAt: createdAt.roundedToMilliseconds, role: role, revokedAt: revokedAt?.roundedToMilliseconds)
    }
}
