import Foundation
import GRDB
import RoutemapDomain

/// A row of `bills` (the bill without its lines).
struct BillRow: FetchableRecord, TableRecord, Sendable {
    static let databaseTableName = "bills"

    enum Columns {
        static let id = Column("id")
        static let status = Column("status")
        static let currency = Column("currency")
        static let taxRateBasisPoints = Column("tax_rate_bps")
        static let subtotalMinor = Column("subtotal_minor")
        static let taxMinor = Column("tax_minor")
        static let totalMinor = Column("total_minor")
        static let version = Column("version")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
        static let deviceId = Column("device_id")
        static let selectedAt = Column("selected_at")
        static let voidReason = Column("void_reason")
        static let voidedAt = Column("voided_at")
        static let discountPercentBasisPoints = Column("discount_percent_bps")
        static let discountAmountMinor = Column("discount_amount_minor")
        static let discountReason = Column("discount_reason")
        static let discountMinor = Column("discount_minor")
        static let paidMinor = Column("paid_minor")
        /// Migration 0026's; absent from a file migrated only up to an earlier one.
        static let label = Column("label")
    }

    let id: String
    let status: String
    let currency: String
    let taxRateBasisPoints: Int
    /// The discounted subtotal (migration 0021): the lines' sum less ``discountMinor``.
    let subtotalMinor: Int64
    let taxMinor: Int64
    let totalMinor: Int64
    let version: Int
    let createdAt: String
    let updatedAt: String
    let deviceId: String?
    let selectedAt: String
    let voidReason: String?
    let voidedAt: String?
    let discountPercentBasisPoints: Int?
    let discountAmountMinor: Int64?
    let discountReason: String?
    let discountMinor: Int64
    /// Σ of the bill's payments when last written (``Bill/paymentsMinor``; migration 0022, 0 before it).
    let paidMinor: Int64
    /// `nil` for a bill without a label, and on a file from before migration 0026.
    let label: String?

    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        status = try row.decode(forColumn: Columns.status)
        currency = try row.decode(forColumn: Columns.currency)
        taxRateBasisPoints = try row.decode(forColumn: Columns.taxRateBasisPoints)
        subtotalMinor = try row.decode(forColumn: Columns.subtotalMinor)
        taxMinor = try row.decode(forColumn: Columns.taxMinor)
        totalMinor = try row.decode(forColumn: Columns.totalMinor)
        version = try row.decode(forColumn: Columns.version)
        createdAt = try row.decode(forColumn: Columns.createdAt)
        updatedAt = try row.decode(forColumn: Columns.updatedAt)
        deviceId = try row.decode(forColumn: Columns.deviceId)
        selectedAt = try row.decode(forColumn: Columns.selectedAt)
        voidReason = try row.decode(forColumn: Columns.voidReason)
        voidedAt = try row.decode(forColumn: Columns.voidedAt)
        discountPercentBasisPoints = try row.decode(forColumn: Columns.discountPercentBasisPoints)
        discountAmountMinor = try row.decode(forColumn: Columns.discountAmountMinor)
        discountReason = try row.decode(forColumn: Columns.discountReason)
        discountMinor = try row.decode(forColumn: Columns.discountMinor)
        paidMinor = try row.decode(forColumn: Columns.paidMinor)
        label = try row.decode(String?.self, forColumn: Columns.label)
    }

    /// The row that stores `bill`, changed at `updatedAt`.
    init(_ bill: Bill, updatedAt: Date) {
        id = bill.id
        status = bill.status.rawValue
        currency = bill.currency.rawValue
        taxRateBasisPoints = bill.taxRate.basisPoints
        subtotalMinor = bill.discountedSubtotalMinor
        taxMinor = bill.taxMinor
        totalMinor = bill.totalMinor
        version = bill.version
        createdAt = Timestamp.format(bill.createdAt)
        self.updatedAt = Timestamp.format(updatedAt)
        deviceId = bill.deviceId
        selectedAt = Timestamp.format(bill.selectedAt)
        voidReason = bill.voiding?.reason
        voidedAt = bill.voiding.map { Timestamp.format($0.voidedAt) }
        discountPercentBasisPoints = bill.discount?.percentBasisPoints
        discountAmountMinor = bill.discount?.amountMinor
        discountReason = bill.discount?.reason
        discountMinor = bill.discountMinor
        paidMinor = bill.paymentsMinor
        label = bill.label
    }

    /// Whether the bill's payments are read with it: paid, or partly paid.
    var hasPayments: Bool { status == BillStatus.paid.rawValue || paidMinor > 0 }

    /// Inserts the row. A cached statement: GRDB's record `insert` builds its SQL on every call,
    /// and bills are written on the hot path. Only a bill with a label names the label column
    /// (the others leave it NULL, as before migration 0026).
    func insert(_ database: Database) throws {
        var arguments: StatementArguments = [
            id, status, currency, taxRateBasisPoints, subtotalMinor, taxMinor, totalMinor, version, createdAt, updatedAt, deviceId,
            selectedAt, voidReason, voidedAt, discountPercentBasisPoints, discountAmountMinor, discountReason, discountMinor, paidMinor,
        ]
        if let label { arguments += [label] }
        try database.cachedStatement(sql: label == nil ? Self.insertSQL : Self.insertLabelledSQL).execute(arguments: arguments)
    }

    private static let insertColumns = """
        id, status, currency, tax_rate_bps, subtotal_minor, tax_minor, total_minor, version, created_at, updated_at, device_id,
        selected_at, void_reason, voided_at, discount_percent_bps, discount_amount_minor, discount_reason, discount_minor, paid_minor
        """
    private static let insertSQL = "INSERT INTO bills (\(insertColumns)) VALUES (\(Array(repeating: "?", count: 19).joined(separator: ", ")))"
    private static let insertLabelledSQL =
        "INSERT INTO bills (\(insertColumns), label) VALUES (\(Array(repeating: "?", count: 20).joined(separator: ", ")))"

    /// The domain's bill with `lines` (in order) and `payments` (oldest first; read when
    /// ``hasPayments``). Throws ``StorageError/invalidRow(table:id:reason:)`` when a value is out
    /// of the domain's range, the stored totals disagree with the lines, or an unsettled bill's
    /// payments are not what `paid_minor` says.
    func bill(lines: [BillLineRow], payments: [Payment] = []) throws -> Bill {
        func invalid(_ reason: String) -> StorageError {
            StorageError.invalidRow(table: Self.databaseTableName, id: id, reason: reason)
        }
        guard let status = BillStatus(rawValue: status) else { throw invalid("status '\(self.status)'") }
        guard let currency = Currency(rawValue: currency) else { throw invalid("currency '\(self.currency)'") }
        guard let taxRate = TaxRate(basisPoints: taxRateBasisPoints) else { throw invalid("tax rate \(taxRateBasisPoints) bps") }
        guard let createdAt = Timestamp.parse(createdAt) else { throw invalid("created_at '\(self.createdAt)'") }
        guard let selectedAt = Timestamp.parse(selectedAt) else { throw invalid("selected_at '\(self.selectedAt)'") }
        var voiding: BillVoiding?
        if let voidReason, let voidedAt {
            guard let date = Timestamp.parse(voidedAt) else { throw invalid("voided_at '\(voidedAt)'") }
            voiding = BillVoiding(reason: voidReason, voidedAt: date)
        }
        let discount: BillDiscount?
        do {
            discount = try BillDiscount.stored(percentBasisPoints: discountPercentBasisPoints, amountMinor: discountAmountMinor, reason: discountReason)
        } catch {
            throw invalid("discount: \(error.field) must be \(error.rule)")
        }
        let bill: Bill
        do {
            bill = try Bill(
                id: id, status: status, lines: try lines.map { try $0.billLine() }, currency: currency, taxRate: taxRate,
                version: version, createdAt: createdAt, selectedAt: selectedAt, voiding: voiding, deviceId: deviceId, discount: discount,
                payments: payments, label: label)
        } catch let violation as InvariantViolation {
            throw invalid(violation.description)
        }
        // A paid bill's paid_minor may be 0 (paid before migration 0022, or by a binary from before it).
        if status.isUnsettled, bill.paymentsMinor != paidMinor {
            throw invalid("paid_minor \(paidMinor) is not the sum of its payments")
        }
        guard let mismatch = bill.storedTotalsMismatch(
            subtotalMinor: subtotalMinor, discountMinor: discountMinor, taxMinor: taxMinor, totalMinor: totalMinor)
        else { return bill }
        throw invalid(mismatch)
    }
}
