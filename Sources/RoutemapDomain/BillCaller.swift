/// Who acts on bills: the calling device and its role. A till reaches only its own bills
/// (another device's reads as missing); a manager reaches every bill, so that the unsettled
/// bills of a lost or revoked till can be read, voided or given to another device.
public struct BillCaller: Sendable, Hashable {
    public let deviceId: String
    public let role: DeviceRole

    public init(deviceId: String, role: DeviceRole) {
        self.deviceId = deviceId
        self.role = role
    }

    /// A till (or a manager acting as one) working on its own bills.
    public static func till(_ deviceId: String) -> BillCaller {
        BillCaller(deviceId: deviceId, role: .till)
    }

    /// Whether the caller may see `bill`: its own, or any bill for a manager.
    public func reaches(_ bill: Bill) -> Bool {
        role == .manager || bill.deviceId == deviceId
    }
}
