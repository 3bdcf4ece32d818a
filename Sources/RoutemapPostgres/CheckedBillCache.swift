import CoreMetrics
import Foundation
import Logging
import PostgresNIO
import RoutemapDomain
import Synchronization

/// Bills this node read lately, used to answer a read without a round trip of its own while
/// still answering with what any node committed before the read began.
///
/// A read (``PostgresStore/reading(_:)``) first runs its body against this cache, noting the
/// version of each bill it used and which bill it found current for each device. It then asks
/// the database whether those are still the latest (``VersionCheck``, one statement shared by
/// every read waiting at that moment), and answers only if they are. Anything the cache cannot
/// answer, or a version that moved, sends the read the usual way (a statement of its own on a
/// store thread), which also refreshes the cache. So the cache saves round trips and can never
/// decide what a read answers: the check is made after the read began, against the database.
///
/// A bill's version changes with every change of the bill (its lines, status, selection), so
/// `(id, version)` names its content, within one history of the database. A history can go
/// back: a failover to a standby that missed the last commits, or a restore, and the next
/// change then makes a version the cache may already hold with other content. Both cost the
/// check its connection, so when the check connects again the cache is emptied
/// (``forgetAll()``) and no read that began before is confirmed (``generation``).
final class CheckedBillCache: Sendable {
    private struct State {
        var bills: BoundedDictionary<String, Bill>
        /// Each device's current bill, by id; `nil` when it has none.
        var current: BoundedDictionary<String, CurrentBill>
    }

    struct CurrentBill: Sendable, Equatable {
        let billId: String?
    }

    private let state: Mutex<State>
    /// One more at each ``forgetAll()``; an atomic, as launch reads it on every request.
    private let generationCount = Atomic<Int>(0)

    init(capacity: Int) {
        state = Mutex(State(bills: BoundedDictionary(capacity: capacity), current: BoundedDictionary(capacity: capacity)))
    }

    /// Remembers `bill` as read from the database (not from inside a transaction), unless a
    /// newer version of it is known already.
    func remember(_ bill: Bill) {
        state.withLock { state in
            if let known = state.bills[bill.id], known.version > bill.version { return }
            state.bills[bill.id] = bill
        }
    }

    /// Remembers `bill` as the current bill of `deviceId` (`nil`: it has none), as read from the database.
    func remember(current bill: Bill?, of deviceId: String) {
        if let bill { remember(bill) }
        state.withLock { $0.current[deviceId] = CurrentBill(billId: bill?.id) }
    }

    /// Forgets every bill, for a database whose history may have gone back (see above).
    func forgetAll() {
        state.withLock { state in
            state.bills.removeAll()
            state.current.removeAll()
            generationCount.add(1, ordering: .sequentiallyConsistent)
        }
    }

    /// How many times the cache was emptied; a read that used it confirms only within one.
    var generation: Int { generationCount.load(ordering: .sequentiallyConsistent) }

    /// Forgets what a version check found out of date.
    func forget(bills: some Sequence<String>, devices: some Sequence<String>) {
        state.withLock { state in
            for id in bills { state.bills[id] = nil }
            for device in devices { state.current[device] = nil }
        }
    }

    fileprivate func bill(id: String) -> Bill? {
        state.withLock { $0.bills[id] }
    }

    /// The current bill of `deviceId` if the cache knows it: `.some(nil)` when it has none.
    fileprivate func currentBill(of deviceId: String) -> Bill?? {
        state.withLock { state -> Bill?? in
            guard let current = state.current[deviceId] else { return .none }
            guard let id = current.billId else { return .some(nil) }
            guard let bill = state.bills[id] else { return .none }
            return .some(bill)
        }
    }
}

/// What a read's body used from a ``CheckedBillCache``: the versions a ``VersionCheck`` confirms.
struct UsedVersions: Sendable, Equatable {
    /// Bill id → the version the body used.
    var bills: [String: Int] = [:]
    /// Device id → the current bill the body used (id and version), `nil` for none.
    var current: [String: BillVersion?] = [:]

    struct BillVersion: Sendable, Equatable {
        let id: String
        let version: Int
    }

    var isEmpty: Bool { bills.isEmpty && current.isEmpty }

    /// Whether the database's `latest` versions are still the ones used.
    func areStill(_ latest: LatestVersions) -> Bool {
        bills.allSatisfy { latest.bills[$0.key] == $0.value }
            && current.allSatisfy { device, used in latest.current[device] == used }
    }
}

/// The versions the database holds now, for the ids a ``VersionCheck`` asked about: a bill
/// missing from `bills` does not exist; a device missing from `current` has no current bill.
struct LatestVersions: Sendable {
    var bills: [String: Int] = [:]
    var current: [String: UsedVersions.BillVersion] = [:]
}

/// One read's run against the cache, bound to the thread that runs the read's body while it
/// runs. A read the cache cannot answer marks the run `missed` and throws ``NotCached``: the
/// read then goes the usual way, whatever the body did with the error.
final class CachedRun: Sendable {
    private let cache: CheckedBillCache
    private let state = Mutex((used: UsedVersions(), missed: false))
    /// The cache's generation when the run began: every bill it used is of it or a later one.
    let generation: Int

    init(cache: CheckedBillCache) {
        self.cache = cache
        generation = cache.generation
    }

    var used: UsedVersions { state.withLock { $0.used } }
    var missed: Bool { state.withLock { $0.missed } }

    func bill(id: String) throws -> Bill {
        guard let bill = cache.bill(id: id) else { throw miss() }
        state.withLock { $0.used.bills[id] = bill.version }
        return bill
    }

    func currentBill(of deviceId: String) throws -> Bill? {
        guard let current = cache.currentBill(of: deviceId) else { throw miss() }
        // `updateValue`: a device with no current bill is noted too (assigning `nil` would not note it).
        state.withLock { _ = $0.used.current.updateValue(current.map { .init(id: $0.id, version: $0.version) }, forKey: deviceId) }
        return current
    }

    /// Notes a read the cache cannot answer; the error to throw for it.
    func miss() -> NotCached {
        state.withLock { $0.missed = true }
        return NotCached()
    }
}

/// A read the cache could not answer, inside a ``CachedRun``: never seen outside the store.
struct NotCached: Error {}

/// Confirms that the bill versions reads used are still the latest, for all the reads waiting
/// at once with one statement on a connection of its own.
///
/// A read waits for the next statement sent after it asked, never one already on its way, so
/// the answer it gets reflects every commit made before the read began. While the database
/// cannot be reached every check fails, and the reads go the usual way (which reports it).
final class VersionCheck: Sendable {
    private let configuration: PostgresConnection.Configuration
    private let eventLoops: any EventLoopGroup
    private let logger: Logger
    /// Called with each connection after the first, before its first statement.
    private let reconnected: @Sendable () -> Void
    private let state = Mutex(State())

    private struct State {
        var waiting: [(used: UsedVersions, answer: CheckedContinuation<LatestVersions?, Never>)] = []
        var running = false
        var connection: PostgresConnection?
        var connectedBefore = false
        var closed = false
    }

    /// The server's `statement_timeout` on the check's connection, under ``deadline``.
    static let timeout: Duration = .seconds(5)

    /// How long a batch waits for its answer, connecting included (``defaultDeadline`` but in
    /// tests).
    private let deadline: Duration

    /// - Parameters:
    ///   - deadline: how long a batch waits for its answer, connecting included.
    ///   - reconnected: called with each connection after the first, before its first statement
    ///     (the store empties its cache then: the database may not be the one it was).
    init(
        configuration: PostgresConnection.Configuration, eventLoops: any EventLoopGroup, logger: Logger,
        deadline: Duration = defaultDeadline, reconnected: @escaping @Sendable () -> Void
    ) {
        self.configuration = configuration
        self.eventLoops = eventLoops
        self.logger = logger
        self.deadline = deadline
        self.reconnected = reconnected
    }

    /// The latest versions of what `used` names, read by a statement sent after this call
    /// began; `nil` when the database did not answer.
    func latest(for used: UsedVersions) async -> LatestVersions? {
        await withCheckedContinuation { answer in
            let start = state.withLock { state -> Bool? in
                guard !state.closed else { return nil }
                state.waiting.append((used, answer))
                if state.running { return false }
                state.running = true
                return true
            }
            switch start {
            case nil: answer.resume(returning: nil)
            case true?: Task { await self.drain() }
            case false?: break  // The running drain takes it with the next statement.
            }
        }
    }

    /// Closes the connection; checks asked for afterwards fail.
    func close() {
        let connection = state.withLock { state in
            state.closed = true
            defer { state.connection = nil }
            return state.connection
        }
        let closing: EventLoopFuture<Void>? = connection?.close()
        _ = try? closing?.wait()
    }

    /// Answers the waiting checks, a statement for all of them at a time, until none wait.
    private func drain() async {
        while true {
            let batch = state.withLock { state -> [(used: UsedVersions, answer: CheckedContinuation<LatestVersions?, Never>)] in
                if state.waiting.isEmpty { state.running = false }
                defer { state.waiting.removeAll(keepingCapacity: true) }
                return state.waiting
            }
            guard !batch.isEmpty else { return }
            var bills = Set<String>(), devices = Set<String>()
            for (used, _) in batch {
                bills.formUnion(used.bills.keys)
                devices.formUnion(used.current.keys)
            }
            let latest = await queryWithinDeadline(bills: bills, devices: devices)
            for (_, answer) in batch { answer.resume(returning: latest) }
        }
    }

    /// How long a batch waits for its answer, connecting included: past the server's
    /// `statement_timeout` on the check's connection (``timeout``), so a slow statement fails
    /// on the server first, with a second for its error to arrive.
    static let defaultDeadline: Duration = timeout + .seconds(1)

    /// ``query(bills:devices:for:)``'s answer, or `nil` once the deadline passed without one.
    ///
    /// The deadline is the check's one timer: when it fires the batch answers `nil`, and the
    /// connection the batch was using (or making) is closed, which fails whatever still waits on
    /// it; the next batch connects anew. It does not rely on the close to end the wait: a CI run
    /// (2026-11-25, both cores busy) hung a read for over 20 minutes waiting on a check, with the
    /// check's connection gone from the server and every thread of the process idle, so some
    /// await under the query was never resumed. Every read of the node waits on the drain, so it
    /// must not wait on anything unbounded.
    private func queryWithinDeadline(bills: Set<String>, devices: Set<String>) async -> LatestVersions? {
        await withCheckedContinuation { answer in
            let batch = PendingBatch(answer: answer)
            batch.deadline = eventLoops.any().scheduleTask(in: .nanoseconds(deadline.nanoseconds)) { [self] in
                let (expired, used) = batch.expire()
                guard expired else { return }  // The statement answered first.
                logger.warning("bill version check gave no answer in time: its connection is given up")
                guard let used else { return }
                state.withLock { state in
                    if state.connection === used { state.connection = nil }
                }
                // Kept until closed: postgres-nio asserts a connection is closed when it is freed.
                used.close().whenComplete { _ in withExtendedLifetime(used) {} }
            }
            Task { batch.finish(with: await self.query(bills: bills, devices: devices, for: batch)) }
        }
    }

    /// One statement for the versions of `bills` and the current bills of `devices`.
    private func query(bills: Set<String>, devices: Set<String>, for batch: PendingBatch) async -> LatestVersions? {
        guard let connection = await connection(for: batch), batch.use(connection) else { return nil }
        do {
            var latest = LatestVersions()
            let rows = try await connection.execute(LatestVersionsStatement(bills: Array(bills), devices: Array(devices)), logger: logger)
            for try await (id, version, device) in rows {
                if let device {
                    latest.current[device] = UsedVersions.BillVersion(id: id, version: version)
                } else {
                    latest.bills[id] = version
                }
            }
            return latest
        } catch {
            logger.debug("bill version check failed", metadata: ["error": "\(String(reflecting: error))"])
            state.withLock { state in
                if state.connection === connection { state.connection = nil }
            }
            await Self.close(connection)
            return nil
        }
    }

    private static func close(_ connection: PostgresConnection) async {
        let closing: EventLoopFuture<Void> = connection.close()
        _ = try? await closing.get()
    }

    /// The check's connection: the open one, else a new one, made for `batch` (`nil` when none
    /// can be made, or when `batch`'s deadline passed first: a connection made late is closed,
    /// so two made for successive batches are never both kept).
    private func connection(for batch: PendingBatch) async -> PostgresConnection? {
        let (existing, closed) = state.withLock { ($0.connection, $0.closed) }
        guard !closed else { return nil }
        if let existing, !existing.isClosed { return existing }
        do {
            let connection = try await PostgresConnection.connect(
                on: eventLoops.any(), configuration: configuration, id: 0, logger: logger
            ).get()
            do {
                // Within the batch's deadline: it closes the connection if the setting hangs.
                guard batch.use(connection) else { throw PendingBatch.Expired() }
                _ = try await connection.query(Session.settingServerTimeout(under: Self.timeout), logger: logger).get()
            } catch {
                await Self.close(connection)
                throw error
            }
            // One connection is kept: should another open one be there already, it is used.
            let (kept, again) = state.withLock { state -> (PostgresConnection?, Bool) in
                guard !state.closed else { return (nil, false) }
                if let other = state.connection, !other.isClosed { return (other, false) }
                state.connection = connection
                defer { state.connectedBefore = true }
                return (connection, state.connectedBefore)
            }
            guard kept === connection else {
                await Self.close(connection)
                return kept
            }
            if again { reconnected() }
            return connection
        } catch {
            logger.debug("bill version check cannot connect", metadata: ["error": "\(String(reflecting: error))"])
            return nil
        }
    }
}

/// One batch's answer, given once: by its statement, or by the deadline
/// (``VersionCheck/queryWithinDeadline(bills:devices:)``), which also closes the connection the
/// batch was using.
private final class PendingBatch: Sendable {
    private struct State {
        var answer: CheckedContinuation<LatestVersions?, Never>?
        var deadline: Scheduled<Void>?
        var connection: PostgresConnection?
    }

    /// Thrown by a connection made after its batch's deadline passed.
    struct Expired: Error {}

    private let state: Mutex<State>

    init(answer: CheckedContinuation<LatestVersions?, Never>) {
        state = Mutex(State(answer: answer))
    }

    /// The deadline's timer, cancelled when the statement answers first (set right after it is
    /// scheduled; one that fires before is harmless: the batch is answered once).
    var deadline: Scheduled<Void>? {
        get { state.withLock { $0.deadline } }
        set {
            let answered = state.withLock { state in
                state.deadline = newValue
                return state.answer == nil
            }
            if answered { newValue?.cancel() }
        }
    }

    /// Notes that the batch waits on `connection`, for the deadline to close; `false` when the
    /// batch was answered already (its deadline passed), and nothing should be sent on it.
    func use(_ connection: PostgresConnection) -> Bool {
        state.withLock { state in
            guard state.answer != nil else { return false }
            state.connection = connection
            return true
        }
    }

    /// Resumes the batch with `latest` unless it was resumed already; whether this call did.
    @discardableResult
    func finish(with latest: LatestVersions?) -> Bool {
        guard let taken = take() else { return false }
        taken.deadline?.cancel()
        taken.answer.resume(returning: latest)
        return true
    }

    /// Resumes the batch with `nil` as its deadline passes, unless it was resumed already;
    /// whether this call did, and the connection the batch was waiting on, for the caller to close.
    func expire() -> (expired: Bool, connection: PostgresConnection?) {
        guard let taken = take() else { return (false, nil) }
        taken.answer.resume(returning: nil)
        return (true, taken.connection)
    }

    private func take() -> (answer: CheckedContinuation<LatestVersions?, Never>, deadline: Scheduled<Void>?, connection: PostgresConnection?)? {
        state.withLock { state in
            defer { state.answer = nil }
            return state.answer.map { ($0, state.deadline, state.connection) }
        }
    }
}

/// The check's statement, prepared once per connection (it runs for every batch of reads, and
/// planning it each time was a third of the database's samples under a launch load).
private struct LatestVersionsStatement: PostgresPreparedStatement {
    static let name = "routemap_latest_bill_versions"
    /// The versions of the bills `$1`, then the current bill of each device in `$2`, chosen by
    /// `PostgresTransaction.currentBill(deviceId:)`'s rule, with its device.
    static let sql = """
        SELECT id, version, NULL::text FROM bills WHERE id = ANY($1)
        UNION ALL
        SELECT * FROM (SELECT DISTINCT ON (device_id) id, version, device_id FROM bills
                       WHERE device_id = ANY($2) AND \(PostgresTransaction.unsettled)
                       ORDER BY device_id, \(PostgresTransaction.currentFirst)) current
        """
    typealias Row = (String, Int, String?)

    let bills: [String]
    let devices: [String]

    func makeBindings() -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(bills)
        bindings.append(devices)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }
}

/// What became of the reads a node tried on its bill cache, for `/metrics`
/// (`routemap_bill_cache_reads_total`, by `outcome`).
enum CachedReadMetrics {
    /// Answered from the cache, its versions confirmed.
    static let confirmed = counter("confirmed")
    /// Read from the database: a version the read used had moved.
    static let outOfDate = counter("out_of_date")
    /// Read from the database: the read needed something the cache did not hold.
    static let notCached = counter("not_cached")

    private static func counter(_ outcome: String) -> Counter {
        Counter(label: "routemap_bill_cache_reads_total", dimensions: [("outcome", outcome)])
    }

    /// Makes each counter now, so that a scrape shows it before it first moves.
    static func register() {
        _ = (confirmed, outOfDate, notCached)
    }
}
