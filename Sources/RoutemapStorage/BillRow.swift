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
    }

    /// Inserts the row. A cached statement: GRDB's record `insert` builds its SQL on every call,
    /// and bills are written on the hot path.
    func insert(_ database: Database) throws {
        try database.cachedStatement(
            sql: """
                INSERT INTO bills
                (id, status, currency, tax_rate_bps, subtotal_minor, tax_minor, total_minor, version, created_at, updated_at, device_id,
                 selected_at, void_reason, voided_at, discount_percent_bps, discount_amount_minor, discount_reason, discount_minor)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            id, status, currency, taxRateBasisPoints, subtotalMinor, taxMinor, totalMinor, version, createdAt, updatedAt, deviceId,
            selectedAt, voidReason, voidedAt, discountPercentBasisPoints, discountAmountMinor, discountReason, discountMinor,
        ])
    }

    /// The domain's bill with `lines` (in order). Throws ``StorageError/invalidRow(table:id:reason:)``
    /// when a value is out of the domain's range or the stored totals disagree with the lines.
    func bill(lines: [BillLineRow]) throws -> Bill {
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
                version: version, createdAt: createdAt, selectedAt: selectedAt, voiding: voiding, deviceId: deviceId, discount: discount)
        } catch let violation as InvariantViolation {
            throw invalid(violation.description)
        }
        guard let mismatch = bill.storedTotalsMismatch(
            subtotalMinor: subtotalMinor, discountMinor: discountMinor, taxMinor: taxMinor, totalMinor: totalMinor)
        else { return bill }
        throw invalid(mismatch)
    }
}
