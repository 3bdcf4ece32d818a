/// Where the till keeps menus, devices, bills and payments: the storage boundary. SQLite
/// (RoutemapStorage) and PostgreSQL (RoutemapPostgres) implement it, without the use cases or
/// the HTTP handlers knowing which.
///
/// Implementations are called from many threads at once. Reads are synchronous; where each
/// one is a round trip to a database server (``DataReads/readsAreImmediate`` is false), callers
/// that must not hold their thread meanwhile run them inside ``DataReads/reading(_:)``.
public protocol POSStore: DataReads {
    /// Every menu item on the menu (not retired), in menu order.
    func menuItems() throws -> [MenuItem]
    /// The categories on the menu (not retired), in menu order.
    func menuCategories() throws -> [MenuCategory]
    /// A number that changes whenever the menu changes (here or in another process).
    func menuRevision() throws -> Int
    /// The bill with `id`, or `nil`.
    func bill(id: String) throws -> Bill?
    /// The current bill of `deviceId`: of its open and checked-out bills, the one selected last
    /// (created or resumed, ``Bill/selectedAt``); `nil` when it has none.
    func currentBill(deviceId: String) throws -> Bill?
    /// Up to `limit` bills of `deviceId` whose status is in `statuses` (open or checked out:
    /// unsettled bills only), newest first (by creation, then id), starting after `cursor`.
    func unsettledBills(deviceId: String, statuses: Set<BillStatus>, after cursor: BillCursor?, limit: Int) throws -> [Bill]
    /// The payment with `id`, or `nil`.
    func payment(id: String) throws -> Payment?
    /// The refunds of bill `billId`, oldest first (by creation, then as recorded).
    func refunds(billId: String) throws -> [Refund]
    /// What a sales report of `period` sums up (``SalesFigures``), read in one snapshot (one
    /// read transaction), so its numbers agree with each other, and by aggregate queries, not by
    /// loading the bills. Throws if a sum does not fit in 64 bits.
    func salesFigures(in period: SalesPeriod) throws -> SalesFigures
    /// The shift with `id`, open or closed, or `nil`.
    func shift(id: String) throws -> DrawerShift?
    /// The open shift of `deviceId`, or `nil` (it has at most one).
    func openShift(deviceId: String) throws -> DrawerShift?
    /// Up to `limit` shifts, of device `deviceId` (`nil`: of every device), newest first (by
    /// opening, then id in byte order), starting after `cursor`.
    func shifts(deviceId: String?, after cursor: ShiftCursor?, limit: Int) throws -> [DrawerShift]
    /// What `shift`'s device moved in and out of its drawer while the shift was open
    /// (``DrawerFigures``), read in one snapshot by aggregate queries: its payments and refunds
    /// by time, its movements by shift. Throws if a sum does not fit in 64 bits.
    func drawerFigures(of shift: DrawerShift) throws -> DrawerFigures
    /// The device whose token has this SHA-256 digest, or `nil` (revoked or not).
    func device(tokenDigest: [UInt8]) throws -> Device?
    /// Every device, revoked ones included, oldest first.
    func devices() throws -> [Device]
    /// The device whose rotated, not yet used token has this SHA-256 digest, or `nil`.
    func device(nextTokenDigest: [UInt8]) throws -> Device?
    /// A number that changes whenever any device changes (revoked, token replaced), by this
    /// process or another: what a cache of tokens compares to learn it is stale.
    func deviceRevision() throws -> Int
    /// Runs `body` in one atomic write transaction, serialized with every other write, and
    /// returns once it has committed: all of its changes are committed together, with the
    /// given durability, or none if `body` throws (the error is rethrown). The caller waits
    /// without holding a thread. `body` is synchronous, so a write cannot start another write
    /// inside it; the transaction must not be used after `body` returns.
    func write<T: Sendable>(durability: Durability, _ body: @escaping @Sendable (any POSTransaction) throws -> T) async throws -> T
    /// Throws unless the database answers (for health checks).
    func ping() throws
    /// A number that changes when what this store reads may have gone back in time: a database
    /// failed over to a standby that missed its last commits, or restored. A bill's version may
    /// then be made again with other content, so an answer cached by a bill's version is keyed
    /// by this too. 0 for a store that cannot tell (one process on one file).
    var history: Int { get }
}

extension POSStore {
    public var history: Int { 0 }

    /// A write transaction with `normal` durability.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any POSTransaction) throws -> T) async throws -> T {
        try await write(durability: .normal, body)
    }
}
