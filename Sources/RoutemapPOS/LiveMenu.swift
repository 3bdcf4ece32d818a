import RoutemapDomain
import RoutemapHTTP
import Synchronization

/// The menu the API serves, kept current while the server runs: rebuilt at once after a menu
/// change through the API commits (`refresh`), and within `recheckAfter` after another process
/// changes it (`routemap menu` on the same file, or another node), by comparing the store's
/// menu revision. Where reads are answered in this process (SQLite), the request that finds a
/// check due makes it. Where they are round trips (PostgreSQL), ``keepCurrent()``, run by the
/// server while it serves, checks every `recheckAfter` whether requests come or not, never on a
/// thread serving the menu: were the check left to requests, the first after a quiet spell
/// would have to be answered before it, with a menu however old. Every answer that shows the menu (the listing, its `ETag`, the
/// menu screen of launch and navigation) reads `current`, and caches of such answers key on
/// its `generation`, so no till is served the old menu once the new one is in.
final class LiveMenu: Sendable {
    private struct State {
        var catalog: MenuCatalog
        var revision: Int
        /// Monotonic nanoseconds of the last revision check.
        var checkedAt: Int64
        /// Why the last revision check failed, if it did: until one succeeds, the menu held
        /// may not be the latest (see ``confirmed()``).
        var checkFailed: StoreUnavailable? = nil
    }

    private let till: Till
    private let state: Mutex<State>
    private let recheckAfter: Int64

    init(till: Till, recheckAfter: Duration = .seconds(1)) throws {
        self.till = till
        let revision = try till.menuRevision()
        let catalog = MenuCatalog(items: try till.menu(), categories: try till.menuCategories(), generation: 0)
        state = Mutex(State(catalog: catalog, revision: revision, checkedAt: CoarseClock.nanoseconds()))
        self.recheckAfter = recheckAfter.nanoseconds
    }

    /// Where reads are round trips, checks for a changed menu every `recheckAfter` until the
    /// task is cancelled; where they are answered in this process, returns at once (requests
    /// make the checks, see ``current``).
    func keepCurrent() async {
        guard !till.readsAreImmediate else { return }
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: .nanoseconds(recheckAfter))
            } catch {
                return  // Cancelled: the server is stopping.
            }
            // The whole read's outcome, as the store reports it: a failure inside the read's
            // body may be the store trying its bill cache first, and is no news of the database.
            do {
                _ = try await till.reading { try self.checked() }
                state.withLock { $0.checkFailed = nil }
            } catch let failure as StoreUnavailable {
                state.withLock { $0.checkFailed = failure }
            } catch {
                // Not the database being unavailable (a bad row): the menu served stays as it was.
            }
        }
    }

    /// The menu now. Where reads are answered in this process, at most once per `recheckAfter`
    /// asks the store whether the menu changed (one small query) and rebuilds it if so; should
    /// the store not answer, the menu served stays as it was until the next check. Where reads
    /// are round trips, the menu the task of its own last installed.
    var current: MenuCatalog {
        guard till.readsAreImmediate else { return state.withLock { $0.catalog } }
        let now = CoarseClock.nanoseconds()
        let (catalog, due) = state.withLock { state -> (MenuCatalog, Bool) in
            guard now - state.checkedAt >= recheckAfter else { return (state.catalog, false) }
            state.checkedAt = now
            return (state.catalog, true)
        }
        guard due else { return catalog }
        return recheck() ?? catalog
    }

    /// The menu rebuilt when the store's revision moved since it was built; `nil` when it did
    /// not, or the store did not answer.
    private func recheck() -> MenuCatalog? {
        (try? checked()) ?? nil
    }

    /// The menu rebuilt when the store's revision moved since it was built; `nil` when it did
    /// not. Throws what reading the revision threw.
    private func checked() throws -> MenuCatalog? {
        let revision = try till.menuRevision()
        guard revision != state.withLock({ $0.revision }) else { return nil }
        return try? rebuild(revision: revision)
    }

    /// The menu for `GET /v1/menu/items` and `/v1/menu/categories`: ``current``, unless reads are
    /// round trips and the last check of the menu's revision failed (the database down): then
    /// this node cannot tell whether another changed the menu, and throws that failure
    /// (``StoreUnavailable``: 503 `database_unavailable`), as every other read does meanwhile.
    func confirmed() throws -> MenuCatalog {
        guard !till.readsAreImmediate else { return current }
        let (catalog, failed) = state.withLock { ($0.catalog, $0.checkFailed) }
        if let failed { throw failed }
        return catalog
    }

    /// Rebuilds the menu from the store now: after a change through the API has committed.
    func refresh() async throws {
        _ = try await till.reading { [self] in try rebuild(revision: try till.menuRevision()) }
    }

    /// Reads the menu after `revision` and installs it, unless a newer one was installed meanwhile.
    private func rebuild(revision: Int) throws -> MenuCatalog {
        let items = try till.menu(), categories = try till.menuCategories()
        return state.withLock { state in
            guard revision >= state.revision else { return state.catalog }
            state.catalog = MenuCatalog(items: items, categories: categories, generation: state.catalog.generation + 1)
            state.revision = revision
            return state.catalog
        }
    }
}
