import Foundation
import GRDB
import RoutemapDomain

/// A row of `idempotency_keys`: the answer recorded for one device's key.
struct RecordedResponseRow: FetchableRecord, TableRecord, Sendable {
    static let databaseTableName = "idempotency_keys"

    enum Columns {
        static let deviceId = Column("device_id")
        static let key = Column("key")
        static let fingerprint = Column("fingerprint")
        static let status = Column("status")
        static let body = Column("body")
        static let location = Column("location")
        static let createdAt = Column("created_at")
    }

    let deviceId: String
    let key: String
    let fingerprint: String
    let status: Int
    let body: Data
    let location: String?
    let createdAt: String

    init(row: Row) throws {
        deviceId = try row.decode(forColumn: Columns.deviceId)
        key = try row.decode(forColumn: Columns.key)
        fingerprint = try row.decode(forColumn: Columns.fingerprint)
        status = try row.decode(forColumn: Columns.status)
        body = try row.decode(forColumn: Columns.body)
        location = try row.decode(forColumn: Columns.location)
        createdAt = try row.decode(forColumn: Columns.createdAt)
    }

    init(_ response: RecordedResponse) {
        deviceId = response.deviceId
        key = response.key
        fingerprint = response.fingerprint
        status = response.status
        body = Data(response.body)
        location = response.location
        createdAt = Timestamp.format(response.createdAt)
    }

    /// Inserts the row, or replaces the one with the same device and key. A cached statement:
    /// GRDB's record `upsert` builds and compiles its SQL on every call (a fifth of an order
    /// cycle's instructions, BENCHMARKS.md).
    func upsert(_ database: Database) throws {
        try database.cachedStatement(
            sql: """
                INSERT INTO idempotency_keys (device_id, key, fingerprint, status, body, location, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (device_id, key) DO UPDATE SET
                fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body,
                location = excluded.location, created_at = excluded.created_at
                """
        ).execute(arguments: [deviceId, key, fingerprint, status, body, location, createdAt])
    }

    func response() throws -> RecordedResponse {
        guard let createdAt = Timestamp.parse(createdAt) else {
            throw StorageError.invalidRow(table: Self.databaseTableName, id: key, reason: "created_at '\(self.createdAt)'")
        }
        return RecordedResponse(
            deviceId: deviceId, key: key, fingerprint: fingerprint, status: status, body: Array(body), location: location,
            createdAt: createdAt)
    }
}
