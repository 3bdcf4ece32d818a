import Foundation

/// Reads and writes inside one ``POSStore/write(durability:_:)`` transaction.
public protocol POSTransaction {
    /// The menu item with `id`, or `nil`.
    func menuItem(id: String) throws -> MenuItem?
    /// The bill with `id`, or `nil`.
    func bill(id: String) throws -> Bill?
    /// The current bill of `deviceId` (see ``POSStore/currentBill(deviceId:)``), or `nil`.
    func currentBill(deviceId: String) throws -> Bill?
    /// Saves a new bill with its lines.
    func insert(_ bill: Bill) throws
    /// Saves an existing bill's status, totals, version and lines. Throws if the bill is
    /// missing or its stored version is not older than `bill.version` (a stale write).
    func update(_ bill: Bill) throws
    /// Records a payment (at most one per bill).
    func insert(_ payment: Payment) throws
    /// Saves a new device with the digest of its token.
    func insert(_ device: Device, tokenDigest: [UInt8]) throws
    /// The answer recorded for `key` of `deviceId`, if any (however old).
    func recordedAnswer(deviceId: String, key: String) throws -> RecordedAnswer?
    /// Records an answer, replacing an expired one with the same device and key.
    func record(_ answer: RecordedAnswer) throws
    /// Forgets answers recorded before `date`.
    func deleteRecordedAnswers(before date: Date) throws
}
