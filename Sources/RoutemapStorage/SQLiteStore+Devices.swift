import Foundation
import GRDB
import RoutemapDomain

extension SQLiteStore {
    public func devices() throws -> [Device] {
        try read("listing devices") { try $0.devices() }
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

    func replaceToken(deviceId: String, tokenDigest: [UInt8]) throws {
        try StorageError.wrapping("replacing the token of device \(deviceId)") {
            try database.execute(sql: "UPDATE devices SET token_digest = ? WHERE id = ?", arguments: [Data(tokenDigest), deviceId])
        }
    }
}
