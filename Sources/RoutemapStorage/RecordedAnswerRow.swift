import Foundation
import GRDB
import RoutemapDomain

/// A row of `idempotency_keys`: the answer recorded for one device's key, as opaque bytes.
struct RecordedAnswerRow: FetchableRecord, TableRecord, Sendable {
    static let databaseTableName = "idempotency_keys"

    enum Columns {
        static let deviceId = Column("device_id")
        static let key = Column("key")
        static let fingerprint = Column("fingerprint")
        static let answer = Column("answer")
        static let createdAt = Column("created_at")
    }

    let deviceId: String
    let key: String
    let fingerprint: String
    let answer: Data
    let createdAt: String

    init(row: Row) throws {
        deviceId = try row.decode(forColumn: Columns.deviceId)
        key = try row.decode(forColumn: Columns.key)
        fingerprint = try row.decode(forColumn: Columns.fingerprint)
        answer = try row.decode(forColumn: Columns.answer)
        createdAt = try row.decode(forColumn: Columns.createdAt)
    }

    init(_ recorded: RecordedAnswer) {
        deviceId = recorded.deviceId
        key = recorded.key
        fingerprint = recorded.fingerprint
        answer = Data(recorded.answer)
        createdAt = Timestamp.format(recorded.createdAt)
    }

    /// Inserts the row, or replaces the one with the same device and key. A cached statement:
    /// GRDB's record `upsert` builds and compiles its SQL on every call (a fifth of an order
    /// cycle's instructions, BENCHMARKS.md).
    func upsert(_ database: Database) throws {
        try database.cachedStatement(
            sql: """
                INSERT INTO idempotency_keys (device_id, key, fingerprint, answer, created_at)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (device_id, key) DO UPDATE SET
                fingerprint = excluded.fingerprint, answer = excluded.answer, created_at = excluded.created_at
                """
        ).execute(arguments: [deviceId, key, fingerprint, answer, createdAt])
    }

    func recorded() throws -> RecordedAnswer {
        guard let createdAt = Timestamp.parse(createdAt) else {
            throw StorageError.invalidRow(table: Self.databaseTableName, id: key, reason: "created_at '\(self.createdAt)'")
        }
        return RecordedAnswer(deviceId: deviceId, key: key, fingerprint: fingerprint, answer: Array(answer), createdAt: createdAt)
    }
}
