import Foundation
import PostgresNIO
import RoutemapDomain

// The statements every change of a bill runs (open, add, checkout, pay), prepared on each
// connection (``Session/rows(prepared:)``, ``Session/enqueue(prepared:check:)``): parsed and
// planned once there instead of on every run. Each is a type (postgres-nio's prepared
// statements carry their name and SQL as static members) with its SQL, the types of its
// parameters in order, and an initializer that binds them from the values it writes. A
// statement run once in a while stays an interpolated `PostgresQuery`.
//
// The parameter types are the ones postgres-nio gives the same Swift values in an interpolated
// query (`String` text, `Int` and `Int64` int8, `Int32` int4, `Date` timestamptz, bytes bytea),
// so a statement runs the same prepared or not.

/// A prepared statement whose parameters are bound when it is made. Its rows are handed over
/// as they come (``Session``'s to decode or count).
protocol BoundStatement: PostgresPreparedStatement where Row == PostgresRow {
    var bindings: PostgresBindings { get }
}

extension BoundStatement {
    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// A read by one text key, `$1`.
protocol ReadByKey: BoundStatement {
    init(bindings: PostgresBindings)
}

extension ReadByKey {
    static var bindingDataTypes: [PostgresDataType] { [.text] }

    init(id: String) {
        var bindings = PostgresBindings()
        bindings.append(id)
        self.init(bindings: bindings)
    }
}

/// ``PostgresTransaction/billSQL``.
struct BillRead: ReadByKey {
    // Named here: postgres-nio's default name is the type's, made anew on every run.
    static let name = "routemap_bill"
    static let sql = PostgresTransaction.billSQL
    let bindings: PostgresBindings
}

/// ``PostgresTransaction/menuItemSQL``.
struct MenuItemRead: ReadByKey {
    static let name = "routemap_menu_item"
    static let sql = PostgresTransaction.menuItemSQL
    let bindings: PostgresBindings
}

/// A bill's row locked until the transaction ends.
struct BillLock: ReadByKey {
    static let name = "routemap_bill_lock"
    static let sql = "SELECT 1 FROM bills WHERE id = $1 FOR UPDATE"
    let bindings: PostgresBindings
}

/// ``PostgresTransaction/emptyOpenBillSQL``.
struct EmptyOpenBillRead: ReadByKey {
    static let name = "routemap_empty_open_bill"
    static let sql = PostgresTransaction.emptyOpenBillSQL
    let bindings: PostgresBindings
}

/// An advisory lock held until the transaction ends (``PostgresTransaction/lock(_:_:)``).
struct AdvisoryLock: BoundStatement {
    static let name = "routemap_advisory_lock"
    static let sql = "SELECT pg_advisory_xact_lock($1, hashtext($2))"
    static let bindingDataTypes: [PostgresDataType] = [.int4, .text]
    let bindings: PostgresBindings

    init(space: PostgresTransaction.LockSpace, key: String) {
        var bindings = PostgresBindings()
        bindings.append(space.rawValue)
        bindings.append(key)
        self.bindings = bindings
    }
}

/// The answer recorded under a device's idempotency key.
struct RecordedAnswerRead: BoundStatement {
    static let name = "routemap_recorded_answer"
    static let sql = "SELECT device_id, key, fingerprint, answer, created_at FROM idempotency_keys WHERE device_id = $1 AND key = $2"
    static let bindingDataTypes: [PostgresDataType] = [.text, .text]
    let bindings: PostgresBindings

    init(deviceId: String, key: String) {
        var bindings = PostgresBindings()
        bindings.append(deviceId)
        bindings.append(key)
        self.bindings = bindings
    }
}

/// Records an answer under its key, or replaces an expired one (``PostgresTransaction/record(_:)``).
struct RecordAnswer: BoundStatement {
    static let name = "routemap_record_answer"
    static let sql = """
        INSERT INTO idempotency_keys (device_id, key, fingerprint, answer, created_at) VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (device_id, key) DO UPDATE SET
            fingerprint = excluded.fingerprint, answer = excluded.answer, created_at = excluded.created_at
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .text, .text, .bytea, .timestamptz]
    let bindings: PostgresBindings

    init(_ answer: RecordedAnswer) {
        var bindings = PostgresBindings()
        bindings.append(answer.deviceId)
        bindings.append(answer.key)
        bindings.append(answer.fingerprint)
        bindings.append(ByteBuffer(bytes: answer.answer))
        bindings.append(answer.createdAt)
        self.bindings = bindings
    }
}

/// What a bill's insert and its update both write, as `$1` to `$18`: the columns of
/// ``columns``, in that order.
enum BillState {
    static let columns = """
        status, subtotal_minor, tax_minor, total_minor, version, updated_at, selected_at, void_reason, voided_at, device_id,
        discount_percent_bps, discount_amount_minor, discount_reason, discount_minor, discount_version, paid_minor, notes_version, label
        """
    static let parameters = (1...18).map { "$\($0)" }.joined(separator: ", ")
    static let types: [PostgresDataType] = [
        .text, .int8, .int8, .int8, .int8, .timestamptz, .timestamptz, .text, .timestamptz, .text,
        .int8, .int8, .text, .int8, .int8, .int8, .int8, .text,
    ]

    /// `bill`'s state, written at `now`; `notesVersion` is ``PostgresTransaction``'s
    /// `notes_version` for it.
    static func bindings(of bill: Bill, notesVersion: Int?, at now: Date) -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(bill.status.rawValue)
        bindings.append(bill.discountedSubtotalMinor)
        bindings.append(bill.taxMinor)
        bindings.append(bill.totalMinor)
        bindings.append(bill.version)
        bindings.append(now)
        bindings.append(bill.selectedAt)
        bindings.append(bill.voiding?.reason)
        bindings.append(bill.voiding?.voidedAt)
        bindings.append(bill.deviceId)
        bindings.append(bill.discount?.percentBasisPoints)
        bindings.append(bill.discount?.amountMinor)
        bindings.append(bill.discount?.reason)
        bindings.append(bill.discountMinor)
        bindings.append(bill.discount.map { _ in bill.version })
        bindings.append(bill.paymentsMinor)
        bindings.append(notesVersion)
        bindings.append(bill.label)
        return bindings
    }
}

/// A new bill's row (``PostgresTransaction/insert(_:)-(Bill)``): its state, then what never
/// changes.
struct BillInsert: BoundStatement {
    static let name = "routemap_bill_insert"
    static let sql = """
        INSERT INTO bills (\(BillState.columns), id, currency, tax_rate_bps, created_at)
        VALUES (\(BillState.parameters), $19, $20, $21, $22)
        """
    static let bindingDataTypes = BillState.types + [.text, .text, .int8, .timestamptz]
    let bindings: PostgresBindings

    init(_ bill: Bill, notesVersion: Int?, at now: Date) {
        var bindings = BillState.bindings(of: bill, notesVersion: notesVersion, at: now)
        bindings.append(bill.id)
        bindings.append(bill.currency.rawValue)
        bindings.append(bill.taxRate.basisPoints)
        bindings.append(bill.createdAt)
        self.bindings = bindings
    }
}

/// A bill's row over an older version of it (``PostgresTransaction/update(_:)``): it returns
/// a row for the one it changed, or none when the bill is stale.
struct BillUpdate: BoundStatement {
    static let name = "routemap_bill_update"
    static let sql = """
        UPDATE bills SET (\(BillState.columns)) = (\(BillState.parameters))
        WHERE id = $19 AND version < $5
        RETURNING 1
        """
    static let bindingDataTypes = BillState.types + [.text]
    let bindings: PostgresBindings

    init(_ bill: Bill, notesVersion: Int?, at now: Date) {
        var bindings = BillState.bindings(of: bill, notesVersion: notesVersion, at: now)
        bindings.append(bill.id)
        self.bindings = bindings
    }
}

/// A bill's line at its position (``PostgresTransaction/insertLines(of:from:)``).
struct LineInsert: BoundStatement {
    static let name = "routemap_line_insert"
    static let sql = """
        INSERT INTO bill_lines (bill_id, position, line_id, menu_item_id, name, quantity, unit_price_minor, modifier_stamp, note)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $6, $8)
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .int8, .text, .text, .text, .int8, .int8, .text]
    let bindings: PostgresBindings

    init(billId: String, position: Int, line: BillLine) {
        var bindings = PostgresBindings()
        bindings.append(billId)
        bindings.append(position)
        bindings.append(line.lineId)
        bindings.append(line.menuItemId)
        bindings.append(line.name)
        bindings.append(line.quantity)
        bindings.append(line.unitPriceMinor)
        bindings.append(line.note)
        self.bindings = bindings
    }
}

/// A line's quantity and note changed in place (``PostgresTransaction/update(_:)``).
struct LineUpdate: BoundStatement {
    static let name = "routemap_line_update"
    static let sql = "UPDATE bill_lines SET quantity = $1, modifier_stamp = $1, note = $2 WHERE bill_id = $3 AND position = $4"
    static let bindingDataTypes: [PostgresDataType] = [.int8, .text, .text, .int8]
    let bindings: PostgresBindings

    init(billId: String, position: Int, line: BillLine) {
        var bindings = PostgresBindings()
        bindings.append(line.quantity)
        bindings.append(line.note)
        bindings.append(billId)
        bindings.append(position)
        self.bindings = bindings
    }
}

/// A payment's row (``PostgresTransaction/insert(_:)-(Payment)``).
struct PaymentInsert: BoundStatement {
    static let name = "routemap_payment_insert"
    static let sql = """
        INSERT INTO payments (id, bill_id, receipt_number, method, amount_minor, tip_minor, tendered_minor, change_minor, created_at, device_id)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
        """
    static let bindingDataTypes: [PostgresDataType] = [.text, .text, .int8, .text, .int8, .int8, .int8, .int8, .timestamptz, .text]
    let bindings: PostgresBindings

    init(_ payment: Payment) {
        var bindings = PostgresBindings()
        bindings.append(payment.id)
        bindings.append(payment.billId)
        bindings.append(payment.receiptNumber)
        bindings.append(payment.method.rawValue)
        bindings.append(payment.amountMinor)
        bindings.append(payment.tipMinor)
        bindings.append(payment.tenderedMinor)
        bindings.append(payment.changeMinor)
        bindings.append(payment.createdAt)
        bindings.append(payment.deviceId)
        self.bindings = bindings
    }
}

/// The receipt counter raised (``PostgresTransaction/nextReceiptNumber()``).
struct ReceiptNumberTake: BoundStatement {
    static let name = "routemap_receipt_number"
    static let sql = "UPDATE receipt_counter SET last_number = last_number + 1 WHERE id = 1 RETURNING last_number"
    let bindings = PostgresBindings()
}
