/// Reads one device's bills (and its cash drawer, ``drawerState()``) and can do nothing else:
/// what screen payload builders get, so that a builder which tries to change data does not
/// compile.
public struct BillReader: Sendable {
    let store: any POSStore
    /// The device whose bills are read; another device's bill reads as missing.
    public let device: String

    init(store: any POSStore, device: String) {
        self.store = store
        self.device = device
    }

    /// The bill with `id`, if the device owns it; `POSError.billNotFound` otherwise.
    public func bill(id: String) throws -> Bill {
        guard let bill = try store.bill(id: id), bill.deviceId == device else { throw POSError.billNotFound(id) }
        return bill
    }

    /// The bill the device is working on (of its open and checked-out bills, the one selected
    /// last), or `nil` when it has none:
    /// reading never creates one (``Till/currentBill(device:)`` does).
    public func currentBill() throws -> Bill? {
        try store.currentBill(deviceId: device)
    }
}

extension Till {
    /// Whether the store answers reads in this process (see ``DataReads/readsAreImmediate``):
    /// then a handler may read on the server's thread; else it reads inside ``reading(_:)``.
    public var readsAreImmediate: Bool { store.readsAreImmediate }

    /// Runs `body`, which reads through this till (``bill(id:device:)``, a ``BillReader``, the
    /// menu), where its reads may wait on the database without holding the caller's thread.
    public func reading<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await store.reading(body)
    }

    /// A read-only view of `device`'s bills.
    public func reader(for device: String) -> BillReader {
        BillReader(store: store, device: device)
    }
}

/// The till's reads: in process on SQLite, round trips on PostgreSQL.
extension Till: DataReads {}
