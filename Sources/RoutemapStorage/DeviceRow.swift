import Foundation
import GRDB
import RoutemapDomain

/// A row of `devices`.
struct DeviceRow: FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "devices"

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let tokenDigest = Column("token_digest")
        static let createdAt = Column("created_at")
        static let role = Column("role")
        static let revokedAt = Column("revoked_at")
    }

    let id: String
    let name: String
    let tokenDigest: [UInt8]
    let createdAt: String
    let role: String
    let revokedAt: String?

    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        name = try row.decode(forColumn: Columns.name)
        let digest: Data = try row.decode(forColumn: Columns.tokenDigest)
        tokenDigest = Array(digest)
        createdAt = try row.decode(forColumn: Columns.createdAt)
        role = try row.decode(forColumn: Columns.role)
        revokedAt = try row.decode(forColumn: Columns.revokedAt)
    }

    init(_ device: Device, tokenDigest: [UInt8]) {
        id = device.id
        name = device.name
        self.tokenDigest = tokenDigest
        createdAt = Timestamp.format(device.createdAt)
        role = device.role.rawValue
        revokedAt = device.revokedAt.map(Timestamp.format)
    }

    func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.name] = name
        container[Columns.tokenDigest] = Data(tokenDigest)
        container[Columns.createdAt] = createdAt
        container[Columns.role] = role
        container[Columns.revokedAt] = revokedAt
    }

    func device() throws -> Device {
        guard let createdAt = Timestamp.parse(createdAt) else {
            throw StorageError.invalidRow(table: Self.databaseTableName, id: id, reason: "created_at '\(self.createdAt)'")
        }
        guard let role = DeviceRole(rawValue: role) else {
            throw StorageError.invalidRow(table: Self.databaseTableName, id: id, reason: "role '\(self.role)'")
        }
        var revoked: Date?
        if let revokedAt {
            guard let date = Timestamp.parse(revokedAt) else {
                throw StorageError.invalidRow(table: Self.databaseTableName, id: id, reason: "revoked_at '\(revokedAt)'")
            }
            revoked = date
        }
        return Device(id: id, name: name, createdAt: createdAt, role: role, revokedAt: revoked)
    }
}
