import Foundation
import GRDB
import RoutemapDomain

/// The store's queries on one GRDB connection: a ``POSTransaction`` inside
/// ``SQLiteStore/write(_:)``, and the store's reads inside a read transaction.
///
/// Valid only while the GRDB closure that provided `database` runs. Hot queries use GRDB's
/// per-connection statement cache: compiling SQL (and GRDB's authorizer pass over it) cost more
/// than running it (BENCHMARKS.md). In a write, bills come from what the transaction already
/// read or wrote, then from the store's ``BillCache``, and only then from SQL.
struct SQLiteTransaction: POSTransaction {
    /// What a write transaction has besides its connection.
    struct Writing {
        /// The bills this transaction read and wrote.
        let changes: BillChanges
        /// The committed bills in memory.
        let cache: BillCache
        /// The menu, by id, as last committed (unknown after a menu change until the commit).
        let menu: MenuCache
    }

    let database: Database
    /// `nil` in a read transaction.
    var writing: Writing? = nil

    func menuItem(id: String) throws -> MenuItem? {
        if let items = writing?.menu.items { return items[id] }
        let item = try StorageError.wrapping("reading menu item \(id)") {
            try MenuItemRow.fetchOne(
                database.cachedStatement(sql: "SELECT * FROM menu_items WHERE id = ?" + (try onMenuOnly())), arguments: [id]
            )?.menuItem()
        }
        guard let item, let groups = try modifierGroups(menuItemId: id)[id] else { return item }
        return item.withModifierGroups(groups)
    }

    /// Every menu item on the menu (not retired), in menu order.
    func menuItems() throws -> [MenuItem] {
        let items = try StorageError.wrapping("reading the menu") {
            try MenuItemRow.fetchAll(database.cachedStatement(sql: "SELECT * FROM menu_items WHERE 1" + (try onMenuOnly()) + " ORDER BY position, id"))
                .map { try $0.menuItem() }
        }
        let groups = try modifierGroups()
        return groups.isEmpty ? items : items.map { item in groups[item.id].map { item.withModifierGroups($0) } ?? item }
    }

    /// The condition that leaves retired items out: none before migration 0011 added
    /// `retired_at` (a store opened with older migrations, as the migration tests do). GRDB
    /// caches the schema per connection, so this costs no query once known.
    private func onMenuOnly() throws -> String {
        try database.columns(in: "menu_items").contains { $0.name == "retired_at" } ? " AND retired_at IS NULL" : ""
    }

    func bill(id: String) throws -> Bill? {
        if let writing, let bill = writing.changes.bill(id: id) ?? writing.cache.bill(id: id) { return bill }
        let bill = try StorageError.wrapping("reading bill \(id)") { () throws -> Bill? in
            guard let row = try BillRow.fetchOne(database.cachedStatement(sql: "SELECT * FROM bills WHERE id = ?"), arguments: [id]) else {
                return nil
            }
            return try decodedBill(row)
        }
        if let bill { writing?.changes.note(bill) }
        return bill
    }

    func currentBill(deviceId: String) throws -> Bill? {
        if let writing, let known = try knownCurrentBill(deviceId: deviceId, writing) { return known }
        let bill = try StorageError.wrapping("reading the device's current bill") {
            try BillRow.fetchOne(database.cachedStatement(sql: Self.currentBillSQL), arguments: [deviceId]).map { try decodedBill($0) }
        }
        if let changes = writing?.changes {
            if let bill { changes.note(bill) }
            changes.note(current: .known(bill.map { .bill($0.id) } ?? .none), deviceId: deviceId)
        }
        return bill
    }

    func emptyOpenBill(deviceId: String) throws -> Bill? {
        // The id from SQL (which sees this transaction's own writes), the bill as `bill(id:)` knows it.
        let id = try StorageError.wrapping("finding the device's empty open bill") {
            try String.fetchOne(database.cachedStatement(sql: Self.emptyOpenBillSQL), arguments: [deviceId])
        }
        return try id.flatMap { try bill(id: $0) }
    }

    func device(tokenDigest: [UInt8]) throws -> Device? {
        try StorageError.wrapping("looking up a device token") {
            try DeviceRow.fetchOne(
                database.cachedStatement(sql: "SELECT * FROM devices WHERE token_digest = ?"), arguments: [Data(tokenDigest)]
            )?.device()
        }
    }

    func insert(_ device: Device, tokenDigest: [UInt8]) throws {
        try StorageError.wrapping("enrolling device \(device.id)") {
            try DeviceRow(device, tokenDigest: tokenDigest).insert(database)
        }
    }

    func recordedAnswer(deviceId: String, key: String) throws -> RecordedAnswer? {
        try StorageError.wrapping("reading an idempotency key") {
            try RecordedAnswerRow.fetchOne(
                database.cachedStatement(sql: "SELECT * FROM idempotency_keys WHERE device_id = ? AND key = ?"), arguments: [deviceId, key]
            )?.recorded()
        }
    }

    func record(_ answer: RecordedAnswer) throws {
        try StorageError.wrapping("recording the answer to an idempotency key") {
            try RecordedAnswerRow(answer).upsert(database)
        }
    }

    func deleteRecordedAnswers(before date: Date) throws {
        try StorageError.wrapping("deleting expired idempotency keys") {
            try database.cachedStatement(sql: "DELETE FROM idempotency_keys WHERE created_at < ?").execute(arguments: [Timestamp.format(date)])
        }
    }

    func insert(_ bill: Bill) throws {
        try StorageError.wrapping("inserting bill \(bill.id)") {
            try BillRow(bill, updatedAt: Date()).insert(database)
            try insertLines(of: bill, from: 0)
        }
        guard let writing else { return }
        writing.changes.note(bill)
        // The new bill becomes its device's current one, unless a newer one is known (the clock
        // went back). While the current bill is unknown it stays unknown: only a query can tell.
        if let deviceId = bill.deviceId, bill.status.isUnsettled, let known = try knownCurrentBill(deviceId: deviceId, writing) {
            if let current = known, current.selectedAt > bill.selectedAt { return }
            writing.changes.note(current: .known(.bill(bill.id)), deviceId: deviceId)
        }
    }

    func update(_ bill: Bill) throws {
        let previous = writing.flatMap { $0.changes.bill(id: bill.id) ?? $0.cache.bill(id: bill.id) }
        try StorageError.wrapping("updating bill \(bill.id)") {
            if let previous, previous.version >= bill.version { throw StorageError.staleBill(id: bill.id, version: bill.version) }
            let updatedAt = Timestamp.format(Date())
            // Only over an older version: a stale copy of the bill must not overwrite a newer one.
            // The status is written only when it changes: writing it touches the index of
            // unpaid bills (an extra page per commit).
            if let previous, previous.status == bill.status, previous.selectedAt == bill.selectedAt, previous.deviceId == bill.deviceId {
                try database.cachedStatement(
                    sql: """
                        UPDATE bills
                        SET subtotal_minor = ?, tax_minor = ?, total_minor = ?, version = ?, updated_at = ?, discount_percent_bps = ?,
                            discount_amount_minor = ?, discount_reason = ?, discount_minor = ?, paid_minor = ?
                        WHERE id = ? AND version < ?
                        """
                ).execute(arguments: [
                    bill.discountedSubtotalMinor, bill.taxMinor, bill.totalMinor, bill.version, updatedAt, bill.discount?.percentBasisPoints,
                    bill.discount?.amountMinor, bill.discount?.reason, bill.discountMinor, bill.paymentsMinor, bill.id, bill.version,
                ])
            } else {
                try database.cachedStatement(
                    sql: """
                        UPDATE bills
                        SET status = ?, subtotal_minor = ?, tax_minor = ?, total_minor = ?, version = ?, updated_at = ?,
                            selected_at = ?, void_reason = ?, voided_at = ?, device_id = ?, discount_percent_bps = ?,
                            discount_amount_minor = ?, discount_reason = ?, discount_minor = ?, paid_minor = ?
                        WHERE id = ? AND version < ?
                        """
                ).execute(arguments: [
                    bill.status.rawValue, bill.discountedSubtotalMinor, bill.taxMinor, bill.totalMinor, bill.version, updatedAt,
                    Timestamp.format(bill.selectedAt), bill.voiding?.reason, bill.voiding.map { Timestamp.format($0.voidedAt) },
                    bill.deviceId, bill.discount?.percentBasisPoints, bill.discount?.amountMinor, bill.discount?.reason,
                    bill.discountMinor, bill.paymentsMinor, bill.id, bill.version,
                ])
            }
            guard database.changesCount == 1 else { throw StorageError.staleBill(id: bill.id, version: bill.version) }
            // The label only when it changed (migration 0026's column, set apart: a label is
            // changed alone, never on the paths that add, check out or pay).
            if previous.map({ $0.label != bill.label }) ?? true {
                try database.cachedStatement(sql: "UPDATE bills SET label = ? WHERE id = ?").execute(arguments: [bill.label, bill.id])
            }
            try updateLines(of: bill, previous: previous)
        }
        guard let writing else { return }
        writing.changes.note(bill)
        guard let deviceId = bill.deviceId else { return }
        if let previous, previous.deviceId != bill.deviceId {
            // Transferred: which bill is current, for the device that had it and for the one
            // that has it now, is unknown without a query.
            if let old = previous.deviceId { writing.changes.note(current: .unknown, deviceId: old) }
            writing.changes.note(current: .unknown, deviceId: deviceId)
        } else if !bill.status.isUnsettled {
            // Settling a bill other than the one known to be current leaves that one current (as
            // paying does after taking up its next bill); settling the current one makes another
            // unsettled one current, or none: unknown without a query.
            if let known = try knownCurrentBill(deviceId: deviceId, writing), let current = known, current.id != bill.id { return }
            writing.changes.note(current: .unknown, deviceId: deviceId)
        } else if previous?.selectedAt != bill.selectedAt {
            // Resumed: the current bill now.
            writing.changes.note(current: .known(.bill(bill.id)), deviceId: deviceId)
        }
    }

    func insert(_ payment: Payment) throws {
        try StorageError.wrapping("recording payment \(payment.id) of bill \(payment.billId)") {
            try PaymentRow(payment).insert(database)
        }
    }

    /// The payments of bill `billId`, oldest first (by receipt number, given in commit order).
    func payments(billId: String) throws -> [Payment] {
        try PaymentRow.fetchAll(
            database.cachedStatement(sql: "SELECT * FROM payments WHERE bill_id = ? ORDER BY receipt_number"), arguments: [billId]
        ).map { try $0.payment() }
    }

    /// The payment with `id`, if any.
    func payment(id: String) throws -> Payment? {
        try StorageError.wrapping("reading payment \(id)") {
            try PaymentRow.filter(PaymentRow.Columns.id == id).fetchOne(database)?.payment()
        }
    }

    /// Up to `limit` unsettled bills of `deviceId` with a status in `statuses`, newest first,
    /// after `cursor`. The WHERE clause repeats the partial index's, so SQLite finds the device's
    /// unsettled bills by `bills_unsettled_by_device_selected_at`; that index is in selection
    /// order (for ``currentBillSQL``), so these few are then sorted by creation.
    func unsettledBills(deviceId: String, statuses: Set<BillStatus>, after cursor: BillCursor?, limit: Int) throws -> [Bill] {
        let wanted = BillStatus.allCases.filter { $0.isUnsettled && statuses.contains($0) }.map(\.rawValue)
        guard !wanted.isEmpty else { return [] }
        var sql = """
            SELECT * FROM bills
            WHERE device_id = ? AND status IN ('open', 'checked_out') AND status IN (\(wanted.map { _ in "?" }.joined(separator: ", ")))
            """
        var arguments: [any DatabaseValueConvertible] = [deviceId]
        arguments += wanted
        if let cursor {
            let createdAt = Timestamp.format(cursor.createdAt)
            sql += " AND (created_at < ? OR (created_at = ? AND id < ?))"
            arguments += [createdAt, createdAt, cursor.id]
        }
        sql += " ORDER BY created_at DESC, id DESC LIMIT ?"
        arguments.append(limit)
        return try StorageError.wrapping("listing the unsettled bills of \(deviceId)") {
            try BillRow.fetchAll(database.cachedStatement(sql: sql), arguments: StatementArguments(arguments)).map { row in
                try writing?.cache.bill(id: row.id) ?? decodedBill(row)
            }
        }
    }

    /// The WHERE clause repeats the partial index's, so SQLite reads
    /// `bills_unsettled_by_device_selected_at` (device_id, selected_at, then the implicit rowid)
    /// backwards: already in this order, it stops at the first entry, with no scan of every bill
    /// and no sort (migration 0016). rowid breaks ties between bills selected in the same
    /// millisecond: the later insert wins.
    static let currentBillSQL = """
        SELECT * FROM bills
        WHERE device_id = ? AND status IN ('open', 'checked_out')
        ORDER BY selected_at DESC, rowid DESC
        LIMIT 1
        """

    /// ``currentBillSQL``'s walk of the device's unsettled bills, newest selected first, stopping
    /// at the first open one with no lines (each checked by `bill_lines`' primary key).
    static let emptyOpenBillSQL = """
        SELECT id FROM bills
        WHERE device_id = ? AND status IN ('open', 'checked_out') AND status = 'open'
            AND NOT EXISTS (SELECT 1 FROM bill_lines WHERE bill_lines.bill_id = bills.id)
        ORDER BY selected_at DESC, rowid DESC
        LIMIT 1
        """

    // MARK: Helpers

    private func decodedBill(_ row: BillRow) throws -> Bill {
        // Only a paid or partly paid bill has payments to read (migration 0022's paid_minor).
        try row.bill(lines: try billLineRows(billId: row.id), payments: row.hasPayments ? payments(billId: row.id) : [])
    }

    /// Writes the lines of `bill` that differ from `previous` (its stored state, when known).
    /// Positions stay 0, 1, 2...: the common edits (a line added at the end, a quantity or a
    /// note changed) touch one row; a removal rewrites the lines.
    private func updateLines(of bill: Bill, previous: Bill?) throws {
        guard let previous, previous.lines.count <= bill.lines.count,
            zip(previous.lines, bill.lines).allSatisfy({ $0.lineId == $1.lineId })
        else {
            try database.cachedStatement(sql: "DELETE FROM bill_lines WHERE bill_id = ?").execute(arguments: [bill.id])
            try deleteLineModifiers(of: bill, previous: previous)
            try insertLines(of: bill, from: 0)
            return
        }
        for (position, (old, new)) in zip(previous.lines, bill.lines).enumerated() where old != new {
            // The note column only when the note changed (migration 0025's; a quantity alone
            // is written as before it).
            if old.note == new.note {
                try database.cachedStatement(sql: "UPDATE bill_lines SET quantity = ? WHERE bill_id = ? AND position = ?").execute(
                    arguments: [new.quantity, bill.id, position])
            } else {
                try database.cachedStatement(sql: "UPDATE bill_lines SET quantity = ?, note = ? WHERE bill_id = ? AND position = ?").execute(
                    arguments: [new.quantity, new.note, bill.id, position])
            }
        }
        try insertLines(of: bill, from: previous.lines.count)
    }

    /// Inserts the lines of `bill` from index `start` on, at their index as position.
    private func insertLines(of bill: Bill, from start: Int) throws {
        for position in bill.lines.indices.dropFirst(start) {
            try BillLineRow(bill.lines[position], billId: bill.id, position: position).insert(database)
        }
    }

    /// The device's current bill as the transaction or the cache knows it: `nil` if unknown,
    /// `.some(nil)` if it has none.
    private func knownCurrentBill(deviceId: String, _ writing: Writing) throws -> Bill?? {
        switch writing.changes.currentChange(deviceId: deviceId) {
        case .known(.none)?: return .some(nil)
        case .known(.bill(let id))?: return try bill(id: id).map { .some($0) }
        case .unknown?: return nil
        case nil: return writing.cache.currentBill(deviceId: deviceId)
        }
    }
}
