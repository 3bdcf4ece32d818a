import RoutemapDomain

/// Wraps a real store so that recording a payment fails after writing: to prove `Till.pay` is
/// one transaction.
struct FailingPaymentStore: POSStore {
    enum Failure: Sendable {
        /// Record the payment, then throw ``InjectedFailure``.
        case afterInsert
        /// Record the payment twice: the database refuses the second (UNIQUE bill_id).
        case duplicateInsert
    }

    struct InjectedFailure: Error, Equatable {}

    let base: any POSStore
    let failure: Failure

    func menuItems() throws -> [MenuItem] { try base.menuItems() }
    func bill(id: String) throws -> Bill? { try base.bill(id: id) }
    func currentBill(deviceId: String) throws -> Bill? { try base.currentBill(deviceId: deviceId) }
    func unsettledBills(deviceId: String, statuses: Set<BillStatus>, after cursor: BillCursor?, limit: Int) throws -> [Bill] {
        try base.unsettledBills(deviceId: deviceId, statuses: statuses, after: cursor, limit: limit)
    }
    func payment(id: String) throws -> Payment? { try base.payment(id: id) }
    func payment(billId: String) throws -> Payment? { try base.payment(billId: billId) }
    func device(tokenDigest: [UInt8]) throws -> Device? { try base.device(tokenDigest: tokenDigest) }
    func devices() throws -> [Device] { try base.devices() }
    func menuRevision() throws -> Int { try base.menuRevision() }
    func menuCategories() throws -> [MenuCategory] { try base.menuCategories() }
    func device(nextTokenDigest: [UInt8]) throws -> Device? { try base.device(nextTokenDigest: nextTokenDigest) }
    func ping() throws { try base.ping() }

    func write<T: Sendable>(durability: Durability, _ body: @escaping @Sendable (any POSTransaction) throws -> T) async throws -> T {
        try await base.write(durability: durability) { transaction in
            try body(FailingPaymentTransaction(base: transaction, failure: failure))
        }
    }
}
