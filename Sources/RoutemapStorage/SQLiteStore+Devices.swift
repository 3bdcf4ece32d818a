import Foundation
import GRDB
import RoutemapDomain

extension SQLiteStore {
    public func devices() throws -> [Device] {
        try read("listing devices") { try $0.devices() }
    }

    public func deviceRevision() throws -> Int {
        try read("reading the device revision") { transaction in
            try Int.fetchOne(transaction.database.cachedStatement(sql: "SELECT revision FROM device_revision WHERE id = 1")) ?? 0
        }
    }

    public func device(nextTokenDigest: [UInt8]) throws -> Device? {
        try read("looking up a rotated device token") { transaction in
            try DeviceRow.fetchOne(
                transaction.database.cachedStatement(sql: "SELECT * FROM devices WHERE next_token_digest = ?"),
                arguments: [Data(nextTokenDigest)])?.device()
        }
    }
}

extension SQLiteTransaction {
    /// Every device, oldest first.
    func devices() throws -> [Device] {
        try StorageError.wrapping("listing devices") {
            try DeviceRow.order(DeviceRow.Columns.createdAt, Column.rowID).fetchAll(database).map { try $0.device() }
        }
    }

    func device(id: String) throws -> Device? {
        try StorageError.wrapping("reading device \(id)") {
            try DeviceRow.fetchOne(database.cachedStatement(sql: "SELECT * FROM devices WHERE id = ?"), arguments: [id])?.device()
        }
    }

    func revokeDevice(id: String, at date: Date) throws {
        try StorageError.wrapping("revoking device \(id)") {
            try database.execute(sql: "UPDATE devices SET revoked_at = ? WHERE id = ?", arguments: [Timestamp.format(date), id])
        }
    }

    func setNextToken(deviceId: String, tokenDigest: [UInt8]) throws {
        try StorageError.wrapping("rotating the token of device \(deviceId)") {
            try database.execute(sql: "UPDATE devices SET next_token_digest = ? WHERE id = ?", arguments: [Data(tokenDigest), deviceId])
        }
    }

    func promoteNextToken(deviceId: String, tokenDigest: [UInt8]) throws {
        try StorageError.wrapping("promoting the rotated token of device \(deviceId)") {
            try database.execute(
                sql: "UPDATE devices SET token_digest = next_token_digest, next_token_digest = NULL WHERE id = ? AND next_token_digest = ?",
                arguments: [deviceId, Data(tokenDigest)])
        }
    }
}
